// Times the approval dialog opening on a 5,000-line diff beside the same
// diff text set into a plain <pre>, in the same page and run. Each sample
// is the synchronous work of one mount (React render, style, layout),
// forced with a layout read; then one frame is let through (and timed as
// well) before the next sample. Results go to window.benchResult.
import { flushSync } from "react-dom";
import { createRoot } from "react-dom/client";
import type { ApprovalRequestedPayload } from "../src/bridge";
import { ApprovalDialog } from "../src/components/ApprovalDialog";
import { DiffView } from "../src/components/DiffView";
import "../src/styles.css";

const LINES = 5000;

function syntheticDiff(n: number): string {
  const out = [`--- a/src/big.ts`, `+++ b/src/big.ts`, `@@ -1,${n} +1,${n} @@`];
  for (let i = 0; i < n; i++) {
    const code = `export function f${i}(x: number): string { return "v" + (x * ${i}).toFixed(2); } // line ${i}`;
    out.push((i % 5 === 1 ? "-" : i % 5 === 2 ? "+" : " ") + code);
  }
  return out.join("\n") + "\n";
}

const diff = syntheticDiff(LINES);
const request: ApprovalRequestedPayload = {
  approvalId: "bench", callId: "bench", tool: "apply_patch",
  rule: { tool: "apply_patch", files: ["src/big.ts"], summary: "apply_patch on src/big.ts" },
  preview: {
    kind: "files", summary: "apply_patch: update src/big.ts", partial: false,
    files: [{ path: "src/big.ts", operation: "update", added: LINES / 5, removed: LINES / 5, diff, oldHash: "", oldContent: "", newContent: "" }],
  },
};

const stage = document.getElementById("stage")!;
const frame = () => new Promise<void>((r) => requestAnimationFrame(() => setTimeout(r, 0)));

type Sample = { sync: number; frame: number };

async function time(mount: (host: HTMLElement) => () => void): Promise<Sample> {
  const host = document.createElement("div");
  host.style.cssText = "position:fixed;inset:0;overflow:hidden";
  stage.append(host);
  const t0 = performance.now();
  const unmount = mount(host);
  void document.body.offsetHeight; // style and layout now
  const t1 = performance.now();
  await frame();
  const t2 = performance.now();
  unmount();
  host.remove();
  await frame();
  return { sync: t1 - t0, frame: t2 - t0 };
}

const pre = (host: HTMLElement) => {
  const el = document.createElement("pre");
  el.className = "code-block";
  el.style.cssText = "height:80vh;overflow:auto;margin:0";
  el.textContent = diff;
  host.append(el);
  return () => el.remove();
};

const react = (node: () => React.ReactNode) => (host: HTMLElement) => {
  const root = createRoot(host);
  flushSync(() => root.render(node()));
  return () => root.unmount();
};

const dialog = react(() => <ApprovalDialog request={request} position={1} total={1} mode="safe" onAnswer={async () => {}} />);
const split = react(() => <div style={{ height: "80vh", display: "flex" }}><DiffView diff={diff} layout="split" fill /></div>);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function run(runs: number) {
  const samples: Record<string, Sample[]> = { pre: [], dialog: [], split: [] };
  // The first dialog mount is the one a user waits for: kept apart.
  const first = await time(dialog);
  for (let i = 0; i < 3; i++) { await time(pre); await time(dialog); await time(split); }
  for (let i = 0; i < runs; i++) {
    samples.pre.push(await time(pre));
    samples.dialog.push(await time(dialog));
    samples.split.push(await time(split));
  }
  const m = (k: string, f: keyof Sample) => median(samples[k].map((s) => s[f]));
  return {
    lines: LINES, runs, first,
    pre: { sync: m("pre", "sync"), frame: m("pre", "frame") },
    dialog: { sync: m("dialog", "sync"), frame: m("dialog", "frame") },
    split: { sync: m("split", "sync"), frame: m("split", "frame") },
  };
}

(window as unknown as { runBench: typeof run }).runBench = run;
(window as unknown as { benchReady: boolean }).benchReady = true;
