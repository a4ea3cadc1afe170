// make bench-dialog: serves the built bench page on a loopback port, opens
// it in the system's Chromium through Playwright, prints the medians.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "@playwright/test";

const here = path.dirname(fileURLToPath(import.meta.url));
const dir = path.resolve(here, "../../build/out/bench-dialog");
const runs = Number(process.env.BENCH_RUNS || 15);
const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css" };

const server = http.createServer((req, res) => {
  const rel = decodeURIComponent(new URL(req.url, "http://x").pathname).replace(/^\/+/, "") || "index.html";
  const file = path.join(dir, path.normalize(rel));
  if (!file.startsWith(dir) || !fs.existsSync(file)) return res.writeHead(404).end();
  res.writeHead(200, { "content-type": types[path.extname(file)] ?? "application/octet-stream" });
  fs.createReadStream(file).pipe(res);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const { port } = server.address();

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.goto(`http://127.0.0.1:${port}/index.html`);
  await page.waitForFunction(() => window.benchReady === true);
  const r = await page.evaluate((n) => window.runBench(n), runs);
  const f = (x) => x.toFixed(1).padStart(7) + " ms";
  console.log(`bench-dialog: a ${r.lines}-line diff, median of ${r.runs} runs (sync = render + style + layout; frame = until the next frame)`);
  console.log(`  plain <pre>             sync ${f(r.pre.sync)}   frame ${f(r.pre.frame)}`);
  console.log(`  dialog (inline)         sync ${f(r.dialog.sync)}   frame ${f(r.dialog.frame)}   ratio ${(r.dialog.sync / r.pre.sync).toFixed(2)}x sync, ${(r.dialog.frame / r.pre.frame).toFixed(2)}x frame`);
  console.log(`  diff view side by side  sync ${f(r.split.sync)}   frame ${f(r.split.frame)}   ratio ${(r.split.sync / r.pre.sync).toFixed(2)}x sync`);
  console.log(`  first dialog mount (cold) sync ${f(r.first.sync)}   frame ${f(r.first.frame)}`);
  const ok = r.dialog.frame <= 300 && r.dialog.sync <= 5 * r.pre.sync;
  console.log(`  target: <= 300 ms and within 5x the plain render: ${ok ? "met" : "NOT met"}`);
} finally {
  await browser.close();
  server.close();
}
