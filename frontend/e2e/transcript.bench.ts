// make bench-transcript: a saved session of 1,000 tool calls (cards with
// diffs and outputs, written by the app's session log writer) resumed in
// the window against the real backend, beside the same content as one plain
// static page, in one run in Chromium: the time to the first frame showing
// the transcript, and the frame times while scrolling through it. Printed,
// never asserted. Targets: first frame <= 2x, scroll frame <= 1.5x.
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
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

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
  fs.rmSync(tmp, { recursive: true, force: true });

  const f = (x: number) => `${x.toFixed(1).padStart(7)} ms`;
  const first = median(resumes) / median(loads);
  const scroll = median(appFrames) / median(staticFrames);
  const verdict = (r: number, t: number) => `ratio ${r.toFixed(2)}x   target <= ${t}x: ${r <= t ? "met" : "NOT met"}`;
  console.log(`bench-transcript: ${calls} tool calls, ${items.length} items, ${(fs.statSync(logPath).size / 1e6).toFixed(1)} MB of log; ${rowsInDom} rows in the window's DOM`);
  console.log(`  first frame, median of ${runs}: static page ${f(median(loads))}   resume ${f(median(resumes))}   ${verdict(first, 2)}`);
  console.log(`  scroll frame (${step} px a frame), median: static page ${f(median(staticFrames))} (p95 ${f(p95(staticFrames))}, ${staticFrames.length} frames)` +
    `   window ${f(median(appFrames))} (p95 ${f(p95(appFrames))}, ${appFrames.length} frames)   ${verdict(scroll, 1.5)}`);
  console.log(`  the static page in a scroll container (the window's layout, no windowing): ${f(median(boxedFrames))} (p95 ${f(p95(boxedFrames))}), ` +
    `${(median(boxedFrames) / median(staticFrames)).toFixed(2)}x the page; the window ${(median(appFrames) / median(boxedFrames)).toFixed(2)}x it`);
});
