import { useState } from "react";
import type { HookRewrite, HookRun } from "../bridge";
import { CodeBlock } from "./CodeBlock";
import { formatDuration, pretty } from "./toolSummary";
import "./HookRuns.css";

/** Whether a run said more than "go ahead": a decision, a failure or a rewrite the user should see at once. */
export function hookSpoke(h: HookRun): boolean {
  return (!!h.decision && h.decision !== "defer") || !!h.failed || !!h.rewrote;
}

/** The hooks that asked: the dialog's lead names them. */
export function askingHooks(hooks: readonly HookRun[] | undefined): HookRun[] {
  return (hooks ?? []).filter((h) => h.decision === "ask");
}

/** Where a hook came from, when not the user's hooks file: the workspace's, or an agent definition's ("agent NAME"). */
function sourceWords(source: string): string {
  if (source === "workspace") return "workspace hook";
  return source.startsWith("agent ") ? `${source}'s hook` : "";
}

/** One hook's run: its command, event, verdict and reason, duration; its exit code, stdout and stderr on demand. */
function HookRunRow({ run }: { run: HookRun }) {
  const [open, setOpen] = useState(false);
  const bad = run.decision === "deny" || run.decision === "block" || !!run.failed;
  const where = [run.event, sourceWords(run.source), run.toolName ? `as ${run.toolName}` : ""].filter(Boolean).join(", ");
  const hasOutput = !!(run.stdout || run.stderr);
  return (
    <li className={`hook-run${bad ? " hook-run-bad" : ""}`}>
      <div className="hook-run-line">
        <span className="hook-run-word">hook</span>
        <code className="hook-run-name" title={run.name}>{run.name}</code>
        <span className="hook-run-where">({where})</span>
        <span className="hook-run-verdict">{bad ? "✗ " : ""}{run.verdict}</span>
        {run.reason && <span className="hook-run-reason">— {run.reason}</span>}
        <span className="hook-run-time">{formatDuration(run.durationMs)}</span>
        <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}
          aria-label={`${open ? "Hide" : "Show"} what hook ${run.name} printed`}>{open ? "hide output" : "output"}</button>
      </div>
      {open && (
        <div className="hook-run-output">
          <div>exit code {run.exitCode}{run.failed ? ` — ${run.failed}` : ""}</div>
          {!hasOutput && <div className="hook-run-empty">It printed nothing.</div>}
          {run.stdout && <CodeBlock code={run.stdout} label={`Standard output of ${run.name}`} />}
          {run.stderr && <CodeBlock code={run.stderr} label={`Standard error of ${run.name}`} />}
        </div>
      )}
    </li>
  );
}

/**
 * The user's hooks that ran on a call, one line each. On a card, when every
 * hook let the call go without a word, they fold to one line ("2 hooks: no
 * objection") that unfolds them; the dialog shows them unfolded.
 */
export function HookRuns({ hooks, folded }: { hooks?: readonly HookRun[] | null; folded?: boolean }) {
  const quiet = !(hooks ?? []).some(hookSpoke);
  // Unfolded by the user; a card's hooks arrive when the call ends, so
  // whether they fold is read from them on every render.
  const [unfolded, setOpen] = useState(false);
  const open = unfolded || !folded || !quiet;
  if (!hooks?.length) return null;
  const n = hooks.length === 1 ? "1 hook" : `${hooks.length} hooks`;
  if (!open) {
    return (
      <div className="hook-runs hook-runs-folded">
        <button type="button" className="link-button" aria-expanded={false} onClick={() => setOpen(true)}>
          {n}: no objection
        </button>
      </div>
    );
  }
  return (
    <ul className="hook-runs" aria-label="Hooks that ran">
      {hooks.map((h, i) => <HookRunRow key={`${h.event}-${h.name}-${h.toolName ?? ""}-${i}`} run={h} />)}
    </ul>
  );
}

/** "rewritten by hook X": what was planned and runs is the hook's version; the model's own call on demand. */
export function HookRewriteNote({ rewrite, shown }: { rewrite?: HookRewrite | null; shown: string }) {
  const [open, setOpen] = useState(false);
  if (!rewrite) return null;
  return (
    <div className="hook-rewrite" role="note">
      <span>⚠ Rewritten by hook <code>{rewrite.hook}</code>: {shown} is the call as the hook changed it, not as the model sent it.</span>{" "}
      <button type="button" className="link-button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? "Hide the model's call" : "Show the model's call"}
      </button>
      {open && <CodeBlock code={pretty(rewrite.original)} language="json" label="The model's call" />}
    </div>
  );
}
