import { useEffect, useState } from "react";
import type { Snapshot } from "../bridge";
import type { SessionInfo, SessionsBackend } from "../bridge/sessions";
import { useMenu } from "./useMenu";
import "./Sessions.css";

/** "just now", "5 min ago", "3 h ago", "yesterday", else the date. */
export function formatWhen(ms: number, now: number = Date.now()): string {
  const s = Math.max(0, Math.round((now - ms) / 1000));
  if (s < 60) return "just now";
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  const d = new Date(ms);
  const today = new Date(now);
  const startOfToday = new Date(today.getFullYear(), today.getMonth(), today.getDate()).getTime();
  if (ms >= startOfToday) return `${Math.floor(s / 3600)} h ago`;
  if (ms >= startOfToday - 86_400_000) return "yesterday";
  const sameYear = d.getFullYear() === today.getFullYear();
  return d.toLocaleDateString("en-US", { month: "short", day: "numeric", ...(sameYear ? {} : { year: "numeric" }) });
}

const turnsText = (n: number) => `${n} turn${n === 1 ? "" : "s"}`;

type Load = { state: "loading" } | { state: "done"; list: SessionInfo[] } | { state: "failed"; error: string };

/**
 * The header's sessions menu: the workspace's saved sessions (title, when,
 * turns), "New session", and resuming one. onSwitched gets the snapshot of
 * the session now open. busy: a turn runs, which switching stops.
 */
export function SessionsMenu(props: {
  backend: SessionsBackend;
  hasWorkspace: boolean;
  busy: boolean;
  onSwitched: (snap: Snapshot) => void;
  /** Opens a new session beside the shown one, which goes on (absent: no such item). */
  beside?: () => Promise<void>;
  /** Opens the export dialog for the open session (absent: no such item). */
  exportSession?: () => void;
}) {
  const { backend, onSwitched } = props;
  const [load, setLoad] = useState<Load>({ state: "loading" });
  // The first item is focused once the menu has its content.
  const { open, close, buttonProps, menuProps } = useMenu('[role="menuitem"]:not([aria-disabled="true"])', load.state);
  const [switching, setSwitching] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // A closed menu forgets its list: opened again, it shows the sessions
    // as they are now, never for a frame those of the last time it was
    // open (a click there would land on an entry about to be redrawn).
    if (!open) {
      setLoad({ state: "loading" });
      return;
    }
    setError(null);
    if (!props.hasWorkspace) {
      setLoad({ state: "done", list: [] });
      return;
    }
    let live = true;
    setLoad({ state: "loading" });
    backend.list().then(
      (list) => live && setLoad({ state: "done", list }),
      (e) => live && setLoad({ state: "failed", error: String(e) }),
    );
    return () => {
      live = false;
    };
  }, [open, backend, props.hasWorkspace]);

  const switchTo = async (target: SessionInfo | "new") => {
    if (target !== "new" && target.current) return close(true);
    setSwitching(target === "new" ? "new" : target.id);
    setError(null);
    try {
      const snap = target === "new" ? await backend.create() : await backend.resume(target.id);
      onSwitched(snap);
      close(true);
    } catch (e) {
      setError(String(e instanceof Error ? e.message : e));
    } finally {
      setSwitching(null);
    }
  };

  return (
    <div className="sessions">
      <button {...buttonProps} className="sessions-button" title="Past sessions of this folder">
        Sessions <span aria-hidden>▾</span>
      </button>
      {open && (
        <div {...menuProps} aria-label="Sessions" className="sessions-menu">
          <button
            role="menuitem"
            className="sessions-new"
            aria-disabled={!props.hasWorkspace || switching !== null}
            onClick={() => props.hasWorkspace && switching === null && void switchTo("new")}
          >
            {switching === "new" ? "Starting…" : "+ New session"}
          </button>
          {props.beside && (
            <button role="menuitem" aria-disabled={!props.hasWorkspace || switching !== null}
              onClick={() => props.hasWorkspace && switching === null && void props.beside!().then(() => close(true), (e) => setError(String(e instanceof Error ? e.message : e)))}>
              Open another session beside this one (it goes on)
            </button>
          )}
          {props.exportSession && (
            <button role="menuitem" aria-disabled={!props.hasWorkspace} onClick={() => props.hasWorkspace && (close(true), props.exportSession!())}>
              Export this session…
            </button>
          )}
          {props.busy && <p className="sessions-note">Switching stops the running turn.</p>}
          {error && (
            <p className="sessions-error" role="alert">
              {error}
            </p>
          )}
          <div role="separator" />
          {!props.hasWorkspace ? (
            <p className="sessions-empty">Choose a folder to see its sessions.</p>
          ) : load.state === "loading" ? (
            <p className="sessions-empty" role="status">
              Loading sessions…
            </p>
          ) : load.state === "failed" ? (
            <p className="sessions-error" role="alert">
              Could not list the sessions: {load.error}
            </p>
          ) : load.list.length === 0 ? (
            <p className="sessions-empty">No saved sessions in this folder yet. Send a message to start one.</p>
          ) : (
            <ul className="sessions-list" role="none">
              {load.list.map((s) => (
                <li key={s.id} role="none">
                  <button
                    role="menuitem"
                    className={`sessions-item${s.current ? " current" : ""}`}
                    aria-current={s.current || undefined}
                    aria-disabled={switching !== null && !s.current}
                    aria-label={`${s.title || "Untitled"}, ${formatWhen(s.updatedMs)}, ${turnsText(s.turns)}${s.current ? ", open now" : ""}`}
                    onClick={() => switching === null && void switchTo(s)}
                  >
                    <span className="sessions-title">{s.title || "Untitled"}</span>
                    <span className="sessions-meta">
                      {switching === s.id
                        ? "Opening…"
                        : `${formatWhen(s.updatedMs)} · ${turnsText(s.turns)}${s.current ? " · open" : ""}`}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
