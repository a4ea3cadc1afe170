// make bench-transcript: a saved session of 1,000 tool calls (cards with
// diffs and outputs, written by the app's session log writer) resumed in
// the window against the real backend, in one run in Chromium: the time to
// the first frame showing the transcript, against the same content as one
// plain static page (target <= 2x); and the frame times while scrolling
// through it. The issue's line for scrolling is "without jank": the
// window's 99th percentile frame within one 60 Hz frame (16.7 ms; frames
// are unthrottled, so a frame's time is its work). Beside it, in the same
// run: the window's own rows, all of them in the DOM with the app's styles
// and no windowing (what windowing buys), and the plain static page, bare
// and in a scroll container (what the app's styles and layout cost, apart
// from windowing). Printed, never asserted.
// BENCH_RUNS: resumes and page loads each (default 5); BENCH_CALLS (1000).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test, expect } from "./harness";
import type { Page } from "@playwright/test";
import { logItems, staticPage, writeLongSession } from "./longSession";

const runs = Number(process.env.BENCH_RUNS || 5);
const calls = Number(process.env.BENCH_CALLS || 1000);
// Frames unthrottled, so a frame's time is its work, not the wait for the next vsync.
test.use({ launchOptions: { executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-frame-rate-limit", "--disable-gpu-vsync", "--no-first-run"] } });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
const p95 = (xs: number[]) => pct(xs, 0.95);
const frame60 = 1000 / 60;

/**
 * The window's rows, all of them, as one static page with the app's own
 * styles, in a scroller of the window's transcript class and the viewport's
 * height: the window is scrolled through from the end to the start and each
 * row it mounts is kept (as rendered, less its place in the window).
 */
async function unwindowedPage(page: Page): Promise<string> {
  // In front: a tab behind others gets no animation frames.
  await page.bringToFront();
  return page.evaluate(async () => {
    const el = document.querySelector<HTMLElement>("[role=log]")!;
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
    const rows = new Map<number, string>();
    const keep = () => {
      for (const r of el.querySelectorAll<HTMLElement>(".rows > .row")) {
        const c = r.cloneNode(true) as HTMLElement;
        c.removeAttribute("style");
        rows.set(Number(r.dataset.index), c.outerHTML);
      }
    };
    el.scrollTop = el.scrollHeight;
    await frame();
    keep();
    while (el.scrollTop > 0) {
      // As the user's scrolling: the window would otherwise follow the end as rows are measured.
      el.dispatchEvent(new WheelEvent("wheel", { deltaY: -el.clientHeight / 2, bubbles: true }));
      el.scrollTop -= el.clientHeight / 2;
      await frame();
      await frame();
      keep();
    }
    const css = [...document.styleSheets].flatMap((s) => [...s.cssRules].map((r) => r.cssText)).join("\n");
    const body = [...rows.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]).join("\n");
    const theme = document.documentElement.getAttribute("data-theme");
    return `<!doctype html><html${theme ? ` data-theme="${theme}"` : ""}><head><meta charset="utf-8"><style>${css}\n` +
      `body { margin: 0 } .transcript { height: 100vh; box-sizing: border-box } .rows { height: auto } .rows > .row { position: static }</style></head>` +
      `<body><div class="transcript" role="log"><div class="rows">${body}</div></div></body></html>`;
  });
}

/** Brings each page to the front for a few frames, then waits for the machine to be idle. */
async function settle(...pages: Page[]) {
  for (const p of pages) {
    await p.bringToFront();
    await p.evaluate(async () => {
      for (let i = 0; i < 10; i++) await new Promise((r) => requestAnimationFrame(r));
    });
  }
  await pages[pages.length - 1].waitForTimeout(1000);
}

/**
 * Scrolls el (the page's own scroller when selector is null) up by step px a
 * frame, from the bottom when fromBottom, and returns each frame's time
 * (between animation frames), at most frames of them.
 */
async function scrollFrames(page: Page, selector: string | null, step: number, frames: number, fromBottom: boolean): Promise<number[]> {
  await page.bringToFront();
  return page.evaluate(async ({ selector, step, frames, fromBottom }) => {
    const el = (selector ? document.querySelector(selector) : document.scrollingElement) as HTMLElement;
    if (fromBottom) el.scrollTop = el.scrollHeight;
    const frame = () => new Promise<number>((r) => requestAnimationFrame(r));
    await frame();
    await frame();
    const out: number[] = [];
    let last = await frame();
    for (let i = 0; i < frames && el.scrollTop > 0; i++) {
      // As a wheel turn: the window tells the user's scrolling from its own by such events.
      el.dispatchEvent(new WheelEvent("wheel", { deltaY: -step, bubbles: true }));
      el.scrollTop -= step;
      const now = await frame();
      out.push(now - last);
      last = now;
    }
    return out;
  }, { selector, step, frames, fromBottom });
}

test("bench-transcript: a 1,000-call session resumed and scrolled, against one static page", async ({ app, page }) => {
  const a = await app({ approvalMode: "safe" });
  const logPath = writeLongSession(a, "bench-1", calls);
  const items = logItems(logPath);
  // The last reply's first words, as the page shows them (its Markdown rendered).
  const lastReply = [...items].reverse().find((it) => it.kind === "assistant")!.text!.split("`")[0];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "gatehouse-bench-"));
  const html = path.join(tmp, "session.html");
  fs.writeFileSync(html, staticPage(items));

  // In turns, so both sides see the same load on a shared machine: the
  // window (Sessions → the saved session, until a frame shows its last
  // reply), then the static page in a second tab (until its first frame).
  const plain = await page.context().newPage();
  const resumes: number[] = [];
  const loads: number[] = [];
  for (let i = 0; i < runs; i++) {
    await page.bringToFront();
    if (i > 0) {
      await page.getByRole("button", { name: "Sessions" }).click();
      await page.getByRole("menuitem", { name: "+ New session" }).click();
      await expect(page.getByRole("article", { name: "Your message" })).toHaveCount(0);
    }
    await page.getByRole("button", { name: "Sessions" }).click();
    const entry = page.getByRole("menuitem", { name: /Step 1: make route 0/ });
    await entry.waitFor();
    // The entry is found again in the page at the click: the menu may have
    // drawn its list again since (the handle's element is then gone, and a
    // click on it would resume nothing).
    await page.evaluate(({ want, entry }) => {
      const el = [...document.querySelectorAll<HTMLElement>("[role=menuitem]")].find((m) => m.textContent?.includes(entry));
      if (!el) throw new Error(`no menu item ${entry}`);
      const w = window as unknown as { benchFrame?: Promise<number> };
      const shown = () => [...document.querySelectorAll("[role=log] [role=article]")].some((a) => a.textContent?.includes(want));
      w.benchFrame = new Promise((resolve) => {
        const t0 = performance.now();
        const obs = new MutationObserver(() => {
          if (!shown()) return;
          obs.disconnect();
          requestAnimationFrame(() => {
            const c = new MessageChannel();
            c.port1.onmessage = () => resolve(performance.now() - t0);
            c.port2.postMessage(0);
          });
        });
        obs.observe(document.body, { childList: true, subtree: true, characterData: true });
        el.click();
      });
    }, { want: lastReply, entry: "Step 1: make route 0" });
    resumes.push(await page.evaluate(() => (window as unknown as { benchFrame: Promise<number> }).benchFrame));

    await plain.bringToFront();
    await plain.goto(`file://${html}`);
    loads.push(await plain.waitForFunction(() => (window as unknown as { firstFrame?: number }).firstFrame).then((h) => h.jsonValue() as Promise<number>));
  }
  await expect(page.getByRole("article", { name: "Reply" }).last()).toContainText(lastReply);
  const rowsInDom = await page.locator("[role=log] .row").count();

  // The same static page inside a scroll container of the window's size,
  // as the window's transcript is (its header and composer stay put): what
  // that layout alone costs a scroll frame, apart from the window's rows.
  const boxed = await page.context().newPage();
  await boxed.goto(`file://${html}`);
  await boxed.evaluate(() => {
    const box = document.createElement("div");
    box.className = "box";
    box.style.cssText = "height: 100vh; overflow-y: auto";
    while (document.body.firstChild) box.appendChild(document.body.firstChild);
    document.body.style.margin = "0";
    document.body.appendChild(box);
  });

  // Each page drawn in front and left to settle first: a page just loaded
  // behind the others still lays out and rasters, and that work would land
  // in the next page's first frames.
  await settle(plain, boxed, page);
  // Scrolling up from the end, in turns of 50 frames each.
  const step = 240;
  const appFrames: number[] = [];
  const staticFrames: number[] = [];
  const boxedFrames: number[] = [];
  for (let i = 0; i < 6; i++) {
    appFrames.push(...(await scrollFrames(page, "[role=log]", step, 50, i === 0)));
    staticFrames.push(...(await scrollFrames(plain, null, step, 50, i === 0)));
    boxedFrames.push(...(await scrollFrames(boxed, ".box", step, 50, i === 0)));
  }

  // The window's own rows with no windowing, in turns with the static page again.
  const unwindowedHtml = path.join(tmp, "unwindowed.html");
  fs.writeFileSync(unwindowedHtml, await unwindowedPage(page));
  const unwindowed = await page.context().newPage();
  await unwindowed.goto(`file://${unwindowedHtml}`);
  await settle(unwindowed, plain);
  const unwindowedRows = await unwindowed.locator("[role=log] .row").count();
  const unwindowedFrames: number[] = [];
  const staticFrames2: number[] = [];
  for (let i = 0; i < 6; i++) {
    unwindowedFrames.push(...(await scrollFrames(unwindowed, "[role=log]", step, 50, i === 0)));
    staticFrames2.push(...(await scrollFrames(plain, null, step, 50, i === 0)));
  }
  fs.rmSync(tmp, { recursive: true, force: true });

  const f = (x: number) => `${x.toFixed(1).padStart(7)} ms`;
  const first = median(resumes) / median(loads);
  const verdict = (r: number, t: number) => `ratio ${r.toFixed(2)}x   target <= ${t}x: ${r <= t ? "met" : "NOT met"}`;
  const frames = (xs: number[]) => `median ${f(median(xs))}, p95 ${f(p95(xs))}, p99 ${f(pct(xs, 0.99))}, ${xs.filter((x) => x > frame60).length} of ${xs.length} over 16.7 ms`;
  // Each against the static page scrolled in the same turns.
  const windowRatio = median(appFrames) / median(staticFrames);
  const unwindowedRatio = median(unwindowedFrames) / median(staticFrames2);
  const jank = pct(appFrames, 0.99);
  console.log(`bench-transcript: ${calls} tool calls, ${items.length} items, ${(fs.statSync(logPath).size / 1e6).toFixed(1)} MB of log; ${rowsInDom} rows in the window's DOM of ${unwindowedRows}`);
  console.log(`  first frame, median of ${runs}: static page ${f(median(loads))}   resume ${f(median(resumes))}   ${verdict(first, 2)}`);
  console.log(`  scroll frame (${step} px a frame), window: ${frames(appFrames)}   ` +
    `p99 ${jank.toFixed(1)} ms   target <= one 60 Hz frame (16.7 ms): ${jank <= frame60 ? "met" : "NOT met"}`);
  console.log(`  the window's ${unwindowedRows} rows all in the DOM, no windowing: ${frames(unwindowedFrames)}; the window ${(windowRatio / unwindowedRatio).toFixed(2)}x it`);
  console.log(`  plain static page (no styles): ${frames(staticFrames)}; the window ${windowRatio.toFixed(2)}x it, the unwindowed rows ${unwindowedRatio.toFixed(2)}x it`);
  console.log(`  the plain page in a scroll container (the window's layout): median ${f(median(boxedFrames))} (p95 ${f(p95(boxedFrames))}), ` +
    `${(median(boxedFrames) / median(staticFrames)).toFixed(2)}x the page; the window ${(median(appFrames) / median(boxedFrames)).toFixed(2)}x it`);
});
