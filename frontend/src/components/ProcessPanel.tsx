import { lazy, Suspense, useEffect, useRef, useState } from "react";
import type { ProcessBackend, ProcessInfo } from "../bridge/processes";
import { merge, upsert } from "../processes/list";
import { ProcessPanelList } from "./ProcessPanelList";
import { ProcessLeftovers } from "./ProcessLeftovers";
import type { LeftoverBackend } from "../bridge/sandbox";
// The terminal (xterm.js) loads when a process is first selected, not at start-up.
const ProcessPanelTerminal = lazy(() => import("./ProcessPanelTerminal").then((m) => ({ default: m.ProcessPanelTerminal })));
import "./ProcessPanel.css";

export interface ProcessPanelProps {
  backend: ProcessBackend;
  /** Called when a process starts, so the host can reveal the panel. */
  onProcessStarted?: () => void;
  /** Clock for uptimes (tests pass a fixed one). */
  now?: () => number;
  /** Process groups a crashed run left, shown above the list with Stop. */
  leftovers?: LeftoverBackend;
  /** The sessions of tabs not shown: their processes are theirs, not this panel's. */
  background?: ReadonlySet<string>;
}

// The processes panel: the session's processes and, below, the selected
// one's terminal. It follows the event stream; a lost event (a seq gap) or a
// new session reloads the list from the backend.
export function ProcessPanel({ backend, onProcessStarted, now = Date.now, leftovers, background }: ProcessPanelProps) {
  const [processes, setProcesses] = useState<ProcessInfo[]>([]);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [nowMs, setNowMs] = useState(now);
  const [error, setError] = useState<string | null>(null);
  const started = useRef(onProcessStarted);
  started.current = onProcessStarted;
  const others = useRef(background);
  others.current = background;

  useEffect(() => {
    let alive = true;
    let lastSeq = 0;
    let sessionId = "";
    const reload = (replace: boolean) =>
      backend.list().then(
        (list) => alive && setProcesses((cur) => (replace ? merge([], list) : merge(cur, list))),
        (err) => alive && setError(`Could not list processes: ${String(err)}`),
      );
    const unsubscribe = backend.subscribe((e) => {
      const gap = lastSeq > 0 && e.seq > lastSeq + 1;
      lastSeq = Math.max(lastSeq, e.seq);
      // A subagent's processes are its own session's (they end with it);
      // its calls show them in the delegate card, not in this panel.
      if (e.parentCallId || (e.sessionId && others.current?.has(e.sessionId))) {
        if (gap) void reload(false);
        return;
      }
      const newSession = e.sessionId !== "" && sessionId !== "" && e.sessionId !== sessionId;
      if (e.sessionId) sessionId = e.sessionId;
      if (newSession) {
        setSelectedId(null);
        void reload(true);
      } else if (gap) void reload(false);
      switch (e.type) {
        case "process.started":
          if (newSession) setProcesses([]);
          setProcesses((cur) => upsert(cur, e.payload));
          setSelectedId((cur) => cur ?? e.payload.processId);
          started.current?.();
          break;
        case "process.updated":
        case "process.exited":
          setProcesses((cur) => upsert(cur, e.payload));
          break;
      }
    });
    void reload(false);
    return () => {
      alive = false;
      unsubscribe();
    };
  }, [backend]);

  // Report the window's focus: a failure while the user is away notifies.
  useEffect(() => {
    const report = (focused: boolean) => void backend.setWindowFocused(focused).catch(() => {});
    const onFocus = () => report(true);
    const onBlur = () => report(false);
    window.addEventListener("focus", onFocus);
    window.addEventListener("blur", onBlur);
    report(document.hasFocus());
    return () => {
      window.removeEventListener("focus", onFocus);
      window.removeEventListener("blur", onBlur);
    };
  }, [backend]);

  // Uptimes tick while something runs.
  const anyRunning = processes.some((p) => p.status === "running");
  useEffect(() => {
    if (!anyRunning) return;
    const t = setInterval(() => setNowMs(now()), 1000);
    return () => clearInterval(t);
  }, [anyRunning, now]);

  const selected = processes.find((p) => p.processId === selectedId) ?? null;
  const failed = processes.filter((p) => p.status === "exited" && p.exitCode !== undefined && p.exitCode !== 0).length;

  return (
    <div className="process-panel">
      {error && (
        <p className="proc-error" role="alert">
          {error}
        </p>
      )}
      {failed > 0 && (
        <p className="proc-failed-count" role="status">
          ✗ {failed === 1 ? "1 process failed" : `${failed} processes failed`}
        </p>
      )}
      {leftovers && <ProcessLeftovers backend={leftovers} />}
      <ProcessPanelList
        processes={processes}
        selectedId={selectedId}
        nowMs={nowMs}
        onSelect={setSelectedId}
        onOpenURL={(url) => backend.openURL(url)}
      />
      {selected ? (
        <Suspense fallback={<p className="empty">Opening the terminal…</p>}>
          <ProcessPanelTerminal key={selected.processId} backend={backend} info={selected}
            onRestarted={(p) => { setProcesses((ps) => upsert(ps, p)); setSelectedId(p.processId); }} />
        </Suspense>
      ) : (
        processes.length > 0 && <p className="empty">Select a process to see its output.</p>
      )}
    </div>
  );
}
