import { useCallback, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type { ApprovalRequestedPayload, Decision, ProposalSelection } from "../bridge";
import { allTicked, approveTicked, dialogTitle, reject, ruleText, selectionState, toggleFile, toggleKey } from "../approval/decision";
import { keyAction } from "../approval/keys";
import { useModalFocus } from "../approval/useModalFocus";
import { ApprovalFiles } from "./ApprovalFiles";
import { ApprovalDiagnostics, currentDiagnostics, diagnosticMarks } from "./ApprovalDiagnostics";
import { ApprovalHooks } from "./ApprovalHooks";
import { ApprovalArgs, ApprovalCommand, ApprovalMcp } from "./ApprovalCommand";
import { ApprovalWeb } from "./ApprovalWeb";
import { ApprovalOthers } from "./ApprovalOthers";
import "./Approval.css";

export interface ApprovalDialogProps {
  request: ApprovalRequestedPayload;
  /** This request's place in the queue, from 1, and the queue's length. */
  position: number;
  total: number;
  /** The approval mode, shown in the corner. */
  mode: string;
  /** Sends the answer; the dialog closes when approval.resolved arrives. */
  onAnswer: (d: Decision) => Promise<void>;
  /**
   * Asks for a fresh preview of a stale request; the new one arrives as
   * approval.requested with the same id.
   */
  onRepreview: () => Promise<void>;
  /** Has the language servers check only the ticked part (see ApprovalDiagnostics). */
  onRecheck?: (sel: ProposalSelection) => Promise<void>;
  /** The session asking, named while several are open. */
  session?: string;
  /** The other requests waiting, each named ("writer › bash"). */
  others?: readonly { id: string; name: string }[];
  /** Shows another waiting request instead of this one (this one keeps waiting). */
  onShow?: (approvalId: string) => void;
}

/**
 * The modal approval dialog of one request (UX.md, "The approval dialog").
 * Focus starts on the file list or the command, never on an approve
 * button, and stays inside. Only the decisions that apply are offered.
 */
export function ApprovalDialog({ request, position, total, mode, onAnswer, onRepreview, onRecheck, session, others, onShow }: ApprovalDialogProps) {
  const p = request.preview;
  const [ticks, setTicks] = useState(() => allTicked(p));
  // A re-preview brings a new preview: start its selection afresh. The
  // same preview again (the page reloaded the session's snapshot: new
  // objects, same content) keeps what the user ticked.
  const seen = useMemo(() => JSON.stringify(p), [p]);
  const [shown, setShown] = useState(seen);
  if (shown !== seen) {
    setShown(seen);
    setTicks(allTicked(p));
  }
  // Files of the preview changed on disk: approving waits for a re-preview.
  const stale = request.stale ?? [];
  const [refreshing, setRefreshing] = useState(false);
  const [note, setNote] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const root = useRef<HTMLDivElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const rejectButton = useRef<HTMLButtonElement>(null);
  const noteField = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const ruleId = useId();

  const state = p.kind === "files" && p.partial ? selectionState(p, ticks) : "all";
  const approveSelected = state === "some" ? approveTicked(p, ticks) : null;
  const rule = ruleText(request);
  // The servers' problems of what is ticked, marked on the diff's lines.
  const checked = currentDiagnostics(request.diagnostics, p, ticks);
  const marks = useCallback((path: string) => diagnosticMarks(checked, path), [checked]);

  // The page behind is inert while the dialog is open; focus starts at the
  // safe starting point and goes back where it was when the dialog closes.
  // Focus moves before the dialog is painted (a layout effect in the hook),
  // so a key pressed as it appears never lands on the page behind (Esc
  // there would stop the turn).
  const trapTab = useModalFocus(backdrop, root,
    () => root.current?.querySelector<HTMLElement>("[data-autofocus]") ?? root.current?.querySelector<HTMLElement>("input, textarea"),
    () => root.current?.querySelector<HTMLElement>("[data-autofocus]") ?? rejectButton.current);

  const send = (d: Decision | null) => {
    if (!d || busy) return;
    setBusy(true);
    setError("");
    onAnswer(d).catch((e) => {
      setBusy(false);
      setError(`Could not send your answer: ${String(e)}`);
    });
  };
  const approveOnce = () => send(stale.length > 0 ? null : state === "some" ? approveSelected : state === "all" ? { kind: "once" } : null);
  // Only for a confined bash exec or start: the user may run this one call
  // outside the sandbox (red, never the default, recorded with the decision).
  const canUnconfine = p.kind === "command" && !!p.command?.confined && (p.command.action === "exec" || p.command.action === "start");
  const approveUnconfined = () => send(stale.length === 0 && state === "all" && canUnconfine ? { kind: "once", unconfined: true } : null);
  const approveSession = () => send(stale.length === 0 && state === "all" && request.rule ? { kind: "session" } : null);
  // "Always allow": the same rule, saved as a standing allow rule; the
  // panel shows what it matches and where it goes before anything is saved.
  const [always, setAlways] = useState(false);
  const [scope, setScope] = useState<"workspace" | "everywhere">("workspace");
  const approveAlways = () => send(stale.length === 0 && state === "all" && request.rule ? { kind: "always", scope } : null);
  const repreview = () => {
    if (refreshing) return;
    setRefreshing(true);
    setError("");
    onRepreview()
      .catch((e) => setError(`Could not re-preview: ${String(e)}`))
      .finally(() => setRefreshing(false));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (trapTab(e)) return;
    const target = e.target as HTMLElement;
    const action = keyAction({ key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, shiftKey: e.shiftKey, altKey: e.altKey, targetTag: target.tagName, inNote: target === noteField.current });
    if (!action) return;
    e.preventDefault();
    e.stopPropagation(); // Esc here never reaches the chat's Stop
    if (action === "focus-reject") rejectButton.current?.focus();
    else if (action === "reject") send(reject(note));
    else if (action === "approve-once") approveOnce();
    else if (action === "approve-session") approveSession();
  };

  return (
    <div className="approval-backdrop" ref={backdrop}>
      <div className="approval-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={root} onKeyDown={onKeyDown}>
        <header className="approval-head">
          <h2 id={titleId}>{dialogTitle(request)}</h2>
          {total > 1 && <span className="approval-queue" aria-label={`request ${position} of ${total}`}>{position} of {total}</span>}
          {session && <span className="approval-session">in session {session}</span>}
          <span className={`approval-mode mode-${mode}`}>{mode} mode</span>
        </header>
        {others && others.length > 0 && <ApprovalOthers others={others} onShow={onShow} />}
        <p className="approval-summary">{p.summary}</p>
        <ApprovalHooks request={request} />
        <div className="approval-body">
          {p.kind === "files" && (
            <ApprovalFiles files={p.files ?? []} partial={!!p.partial} ticks={ticks}
              onToggleFile={(f) => setTicks((t) => toggleFile(f, t))} onToggleKey={(k) => setTicks((t) => toggleKey(k, t))} marks={marks} />
          )}
          {p.kind === "command" && p.command && <ApprovalCommand command={p.command} />}
          {p.mcp && <ApprovalMcp server={p.mcp.server} tool={p.mcp.tool} description={p.mcp.description} />}
          {p.web && <ApprovalWeb web={p.web} />}
          {p.kind === "args" && !p.web && <ApprovalArgs text={p.argsText ?? JSON.stringify(p.args, null, 2)} />}
        </div>
        {p.kind === "files" && <ApprovalDiagnostics diagnostics={request.diagnostics} preview={p} ticks={ticks} onRecheck={onRecheck} />}
        {stale.length > 0 && (
          <div className="approval-stale" role="alert">
            <span>⚠ {stale.join(", ")} changed on disk since this preview</span>
            <button type="button" disabled={refreshing} onClick={repreview}>Re-preview</button>
          </div>
        )}
        <footer className="approval-foot">
          <label className="approval-note-field">
            <span>Note to the model (optional)</span>
            <input type="text" ref={noteField} value={note} onChange={(e) => setNote(e.target.value)} placeholder="Why, or what to do instead" />
          </label>
          {error && <p className="approval-error" role="alert">{error}</p>}
          {state === "none" && <p className="approval-hint">Nothing is ticked: tick a file or hunk to approve it, or reject.</p>}
          <div className="approval-buttons">
            <button type="button" ref={rejectButton} className="danger" disabled={busy} onClick={() => send(reject(note))}>Reject</button>
            {state === "some" && <button type="button" className="primary" disabled={busy || stale.length > 0} onClick={approveOnce}>Approve selected</button>}
            {state === "all" && <button type="button" className="primary" disabled={busy || stale.length > 0} onClick={approveOnce}>Approve once</button>}
            {state === "all" && request.rule && (
              <button type="button" disabled={busy || stale.length > 0} onClick={approveSession} aria-describedby={ruleId}>
                {request.rule.domain ? "Allow this domain for the session" : "Approve for session"}
              </button>
            )}
            {state === "all" && request.rule && (
              <button type="button" disabled={busy || stale.length > 0} aria-expanded={always} onClick={() => setAlways(!always)}>Always allow…</button>
            )}
            {state === "all" && canUnconfine && (
              <button type="button" className="danger approval-unconfine" disabled={busy || stale.length > 0} onClick={approveUnconfined}
                title="Runs this one command outside the sandbox: it can then read your keys and write anywhere you can">Run once, unconfined</button>
            )}
          </div>
          {state === "all" && rule && <p className="approval-rule" id={ruleId}>{rule}</p>}
          {state === "all" && always && request.rule && (
            <div className="approval-always" role="group" aria-label="Always allow">
              <p>Saves a standing rule that lasts beyond this session: <strong>allow</strong> {request.rule.summary}. Nothing else matches it.</p>
              <label><input type="radio" name="always-scope" checked={scope === "workspace"} onChange={() => setScope("workspace")} /> this workspace (kept in your config, not in the folder)</label>
              <label><input type="radio" name="always-scope" checked={scope === "everywhere"} onChange={() => setScope("everywhere")} /> everywhere (your policy.toml; the folder is kept relative to the workspace root)</label>
              <button type="button" className="primary" disabled={busy || stale.length > 0} onClick={approveAlways}>Save rule and approve</button>
            </div>
          )}
          <p className="approval-keys">
            <kbd>Ctrl</kbd>+<kbd>Enter</kbd> approves{request.rule ? <> · <kbd>Ctrl</kbd>+<kbd>Shift</kbd>+<kbd>Enter</kbd> for the session</> : null} · <kbd>Esc</kbd> goes to Reject · in the note, <kbd>Ctrl</kbd>+<kbd>Enter</kbd> rejects
          </p>
        </footer>
      </div>
    </div>
  );
}
