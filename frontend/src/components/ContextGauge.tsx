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

/**
 * How full the model's context window was at the last request:
 * "context ▓▓▓▓░░ 41%". Warns from 75%, alarms from 90%; its title says
 * where the window's size came from and what was compacted.
 */
export function ContextGauge({ use }: { use?: ContextUse }) {
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
    : "No request yet in this session.";
  return (
    <div
      className={`context-gauge context-${use ? level : "none"}`}
      role="meter"
      aria-label="Context window"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={pct}
      aria-valuetext={use ? `${approx}${pct}% (${n(use.tokens)} of ${n(use.window)} tokens)` : "no request yet"}
      title={title}
      data-window-source={use?.windowSource || undefined}
    >
      <span className="context-label">context</span>
      <span className="context-cells mono" aria-hidden>
        <span className="context-filled">{"▓".repeat(filled)}</span>
        <span className="context-empty">{"░".repeat(CELLS - filled)}</span>
      </span>
      <span className="context-pct">{use ? `${use.estimated ? "~" : ""}${pct}%` : "–"}</span>
    </div>
  );
}
