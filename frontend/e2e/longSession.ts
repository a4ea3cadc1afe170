// A long saved session for the window's scale bench and tests: written by
// the app's own session log writer (internal/session/cmd/longlog, built by
// make into build/out), four tool calls a turn, each card with its output
// or diff, then read back as items and as one plain static page.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { App } from "./harness";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const longlog = process.env.GATEHOUSE_LONGLOG_BIN || path.join(root, "build/out/longlog");

type Item = { kind: string; text?: string; tool?: string; args?: unknown; result?: unknown; reason?: string };

/** Writes a session of calls tool calls into app's data folder; returns its log's path. */
export function writeLongSession(app: App, id: string, calls: number, needle = ""): string {
  const args = ["-data", app.dataDir, "-workspace", app.workspace, "-id", id, "-calls", String(calls)];
  if (needle) args.push("-needle", needle);
  return execFileSync(longlog, args, { encoding: "utf8" }).trim();
}

/** The transcript items a session log holds, in order. */
export function logItems(logPath: string): Item[] {
  return fs.readFileSync(logPath, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l))
    .filter((r) => r.type === "item").map((r) => r.item as Item);
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const json = (v: unknown) => esc(typeof v === "string" ? v : JSON.stringify(v, null, 2));

/**
 * The same items as one plain static page: messages as paragraphs, each
 * tool call a <details> whose summary is its line and whose folded body
 * holds its arguments and result (outputs and diffs), the turn's stop a
 * line. The script at its end records the first frame after the whole
 * page was parsed (window.firstFrame, ms from navigation start).
 */
export function staticPage(items: Item[]): string {
  const rows = items.map((it) => {
    switch (it.kind) {
      case "user":
        return `<article><b>you</b><p>${esc(it.text ?? "")}</p></article>`;
      case "assistant":
        return `<article><b>assistant</b>${(it.text ?? "").split("\n\n").map((p) => `<p>${esc(p)}</p>`).join("")}</article>`;
      case "tool":
        return `<details><summary><code>${esc(it.tool ?? "")}</code> ${json(it.args).slice(0, 120)} ✓</summary><pre>${json(it.args)}</pre><pre>${json(it.result)}</pre></details>`;
      default:
        return `<p>── ${esc(it.reason ?? it.kind)} ──</p>`;
    }
  });
  return `<!doctype html><html><head><meta charset="utf-8"><title>session</title></head><body>${rows.join("\n")}
<script>requestAnimationFrame(() => { const c = new MessageChannel(); c.port1.onmessage = () => { window.firstFrame = performance.now(); }; c.port2.postMessage(0); });</script>
</body></html>`;
}
