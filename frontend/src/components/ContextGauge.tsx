import { useEffect, useState } from "react";
import type { ContextUse, TranscriptItem } from "../bridge";
import "./Sessions.css";

/** The latest context use: of the last turn that made a model request, or of a compaction (or its undoing) since. */
export function lastContextUse(items: readonly TranscriptItem[]): ContextUse | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if ((it.kind === "stop" || it.kind === "compaction") && it.context && it.context.window > 0) return it.context;
  }
  return undefined;
}

/** Where the window's size came from, in words (see llm.WindowSource). */
export const windowSources: Record<string, string> = {
  server: "as the model server reports it",
  known_model: "known for this model",
  setting: "from Settings",
  default: "assumed; set the model's window in Settings",
};

const CELLS = 6;
const n = (x: number) => x.toLocaleString("en-US");
const short = new Intl.NumberFormat("en-US", { notation: "compact", maximumFractionDigits: 0 });

/** The window the next request will have, before the first one: detecting, or its size and where it came from. */
export type NextWindow = "detecting" | { tokens: number; source: string };

/**
 * Asks for the next request's window while no request has told it (ask),
 * again when key (the model) changes; "detecting" until the answer.
 */
export function useNextWindow(ask: (() => Promise<{ tokens: number; source: string }>) | undefined, key: string): NextWindow | undefined {
  const [got, setGot] = useState<{ key: string; w: NextWindow } | undefined>();
  useEffect(() => {
    if (!ask) return;
    let live = true;
    ask().then((w) => live && w.tokens > 0 && setGot({ key, w }), () => {});
    return () => {
      live = false;
    };
  }, [ask, key]);
  if (!ask) return undefined;
  return got?.key === key ? got.w : "detecting";
}

/**
 * How full the model's context window was at the last request:
 * "context ▓▓▓▓░░ 41%". Warns from 75%, alarms from 90%; its title says
 * where the window's size came from and what was compacted.
 */
export function ContextGauge({ use, next }: { use?: ContextUse; next?: NextWindow }) {
  const pct = use ? Math.min(100, Math.round((use.tokens / use.window) * 100)) : 0;
  const filled = use ? Math.min(CELLS, Math.round((pct / 100) * CELLS)) : 0;
  const level = pct >= 90 ? "full" : pct >= 75 ? "high" : "ok";
  const approx = use?.estimated ? "about " : "";
  const source = use?.windowSource ? windowSources[use.windowSource] : undefined;
  const title = use
    ? `The last request used ${approx}${n(use.tokens)} of the model's ${n(use.window)} tokens` +
      (source ? ` (window ${source}).` : ".") +
      (use.trimmed ? ` ${use.trimmed} older tool output${use.trimmed === 1 ? " was" : "s were"} cleared to fit.` : "") +
      (use.compacted ? " Older turns are sent as a summary." : "")
    : next === "detecting"
      ? "No request yet in this session. Detecting the model's context window…"
      : next
        ? `No request yet in this session. The model's context window is ${n(next.tokens)} tokens` +
          (windowSources[next.source] ? ` (${windowSources[next.source]}).` : ".")
        : "No request yet in this session.";
  const before = next === "detecting" ? "detecting…" : next ? `${short.format(next.tokens)} window` : "–";
  const beforeWords = next === "detecting" ? "no request yet; detecting the window" : next ? `no request yet; a window of ${n(next.tokens)} tokens` : "no request yet";
  return (
    <div
      className={`context-gauge context-${use ? level : "none"}`}
      role="meter"
      aria-label="Context window"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      aria-valuetext={use ? `${approx}${pct}% (${n(use.tokens)} of ${n(use.window)} tokens)` : beforeWords}
      title={title}
      data-window-source={use?.windowSource || undefined}
    >
      <span className="context-label">context</span>
      <span className="context-cells mono" aria-hidden>
        <span className="context-filled">{"▓".repeat(filled)}</span>
        <span className="context-empty">{"░".repeat(CELLS - filled)}</span>
      </span>
      <span className="context-pct">{use ? `${use.estimated ? "~" : ""}${pct}%` : before}</span>
    </div>
  );
}
