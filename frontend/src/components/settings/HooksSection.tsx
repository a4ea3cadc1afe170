import { useCallback, useEffect, useState } from "react";
import type { HookEntry, HooksBackend, HooksView } from "../../bridge/hooks";
import type { HookRun } from "../../bridge";
import { CodeBlock } from "../CodeBlock";
import { formatDuration } from "../toolSummary";
import { HooksImport } from "./HooksImport";
import type { SectionProps } from "./sections";

/** The hooks of hs grouped by event, in the order listed. */
function byEvent(hs: readonly HookEntry[]): [string, HookEntry[]][] {
  const out = new Map<string, HookEntry[]>();
  for (const h of hs) out.set(h.event, [...(out.get(h.event) ?? []), h]);
  return [...out];
}

/** Whose hook h is, in words: yours, the workspace's, or an agent definition's (which runs for that agent's subagents only). */
function whose(h: HookEntry): string {
  if (h.source === "agent") {
    return `agent ${h.agent ?? ""}, for its subagents only (${h.confined ? "the workspace's definition: runs confined, once you trust it" : "your definition"})`;
  }
  return h.source === "workspace" ? "the workspace's (runs confined, once you trust it)" : "yours";
}

/** Whether Test may run h here: your own hooks, never a workspace's (they run confined, in its sessions). */
function testable(h: HookEntry): boolean {
  return h.source === "user" || (h.source === "agent" && !h.confined);
}

/** A Test's outcome: the verdict, exit code and time, and what the hook printed. */
function TestResult({ run }: { run: HookRun }) {
  return (
    <div className="hooks-test" role="status" aria-label={`Test of ${run.name}`}>
      <div>
        <strong>{run.verdict}</strong>{run.reason ? ` — ${run.reason}` : ""} · exit code {run.exitCode} · {formatDuration(run.durationMs)}
        {run.toolName ? <span className="settings-muted"> (it saw a sample {run.toolName} call)</span> : null}
      </div>
      {!run.stdout && !run.stderr && <div className="settings-muted">It printed nothing.</div>}
      {run.stdout && <CodeBlock code={run.stdout} label={`Standard output of ${run.name}`} />}
      {run.stderr && <CodeBlock code={run.stderr} label={`Standard error of ${run.name}`} />}
    </div>
  );
}

function HookRow({ h, backend, setView, setError }: {
  h: HookEntry; backend: HooksBackend; setView: (v: HooksView) => void; setError: (e: string) => void;
}) {
  const [run, setRun] = useState<HookRun | null>(null);
  const [testing, setTesting] = useState(false);
  const test = () => {
    setTesting(true);
    setRun(null);
    backend.test(h.id).then(setRun, (e) => setError(`Could not test ${h.command}: ${String(e)}`)).finally(() => setTesting(false));
  };
  return (
    <li data-hook={h.id}>
      <label>
        <input type="checkbox" checked={h.enabled} aria-label={`${h.command} on`}
          onChange={(e) => backend.setOn(h.id, e.currentTarget.checked).then(setView, (err) => setError(String(err)))} />{" "}
        <code className="hooks-command">{h.command}</code>
      </label>
      <div className="settings-muted">
        {whose(h)}
        {" · "}{h.matcher && h.matcher !== "*" ? <>matcher <code>{h.matcher}</code></> : "every tool"}
        {" · "}timeout {h.timeoutSec} s
        {h.failsClosed && " · a failure blocks"}
        {!h.enabled && " · off"}
      </div>
      {testable(h) && (
        <button type="button" disabled={testing} onClick={test} aria-label={`Test ${h.command}`}>{testing ? "Testing…" : "Test"}</button>
      )}
      {run && <TestResult run={run} />}
    </li>
  );
}

/**
 * Settings → Hooks: your hooks and the workspace's by event, each with its
 * source, matcher and timeout, on or off, and Test; Import from Claude Code.
 */
export function HooksSection({ deps }: SectionProps) {
  const [view, setView] = useState<HooksView | null>(null);
  const [error, setError] = useState("");
  const backend = deps.hooks;
  const load = useCallback(() => {
    backend?.list().then(setView, (e) => setError(`Could not list the hooks: ${String(e)}`));
  }, [backend]);
  useEffect(load, [load]);
  if (!backend) return <p className="settings-note">Hooks cannot be listed here.</p>;
  const hooks = view?.hooks ?? [];
  return (
    <div className="settings-info">
      <p>
        Commands that run around the agent's calls and your prompts, in the shape Claude Code uses: yours in{" "}
        <code>{view?.userFile ?? "~/.config/gatehouse/hooks.json"}</code>, the workspace's in <code>.gatehouse/hooks.json</code>, and an
        agent definition's in its front matter (<code>hooks:</code>), for that agent's subagents only.
        A <code>PreToolUse</code> or <code>UserPromptSubmit</code> hook that fails (cannot start, times out, exits other than 0 or 2)
        blocks the call or prompt; <code>"onError": "continue"</code> lets one go on.
      </p>
      {error && <p className="settings-error" role="alert">{error}</p>}
      {(view?.errors ?? []).map((e) => <p key={e} className="settings-error" role="alert">Not read: {e}</p>)}
      {view === null ? (
        <p className="settings-note">Reading the hooks…</p>
      ) : hooks.length === 0 ? (
        <p className="empty">No hooks yet: write them in your hooks file, or import Claude Code's below.</p>
      ) : (
        byEvent(hooks).map(([event, hs]) => (
          <section key={event} aria-label={`${event} hooks`}>
            <h3 className="hooks-event">{event}</h3>
            <ul className="settings-agents" aria-label={`${event} hooks`}>
              {hs.map((h) => <HookRow key={h.id} h={h} backend={backend} setView={setView} setError={setError} />)}
            </ul>
          </section>
        ))
      )}
      {view && <HooksImport backend={backend} defaultFrom={view.claudeFile} into={view.userFile} onImported={setView} />}
    </div>
  );
}
