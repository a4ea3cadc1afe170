import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import type { FilePreview, UndoChoice, UndoFile } from "../bridge";
import type { UndoBackend } from "../bridge/undo";
import { toggleFile, toggleKey, type Ticks } from "../approval/decision";
import { useModalFocus } from "../approval/useModalFocus";
import { allUndoTicked, asPreview, undoable, undoSelection, unitLabel, type UndoView } from "../undo/selection";
import { ApprovalFiles } from "./ApprovalFiles";
import { DiffView } from "./DiffView";
import "./Approval.css";

const stateWords: Record<string, string> = {
  "changed-since": "changed since",
  "not-restorable": "cannot be restored",
  unchanged: "already as it was",
};

/** Why a file is listed apart from those undo can act on. */
function apart(f: UndoFile): string {
  if (f.state === "unchanged") return "already as it was before";
  return f.note || "cannot be restored";
}

/**
 * What a turn (or an undo) changed, and undoing it: "turn" view reviews
 * every file the turn changed in the approval dialog's file list and diff
 * view; "undo" view shows the diff undoing writes, with a tick per file
 * and per hunk, and restores what is ticked. A file changed again since is
 * marked, shown with both diffs, and kept unless the user chooses restore.
 */
export function UndoDialog({ unit, view: startView, api, onClose, only }: {
  unit: string;
  view: UndoView;
  api: UndoBackend;
  onClose: () => void;
  /** Shows and undoes only this file of the unit (a tool card's revert). */
  only?: string;
}) {
  const [files, setFiles] = useState<UndoFile[] | null>(null);
  const [view, setView] = useState<UndoView>(startView);
  const [ticks, setTicks] = useState<Ticks>(new Set());
  const [choices, setChoices] = useState<Record<string, UndoChoice>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const root = useRef<HTMLDivElement>(null);
  const backdrop = useRef<HTMLDivElement>(null);
  const titleId = useId();
  const label = unitLabel(unit);

  useEffect(() => {
    api.plan(unit).then((all) => {
      const f = only ? all.filter((x) => x.path === only) : all;
      setFiles(f);
      setTicks(allUndoTicked(f));
    }, (e) => setError(`Could not read the changes: ${String(e)}`));
  }, [api, unit, only]);

  // The page behind is inert; focus starts inside and stays there, and
  // goes back where it was on close.
  const trapTab = useModalFocus(backdrop, root, () => root.current?.querySelector<HTMLElement>("[data-autofocus], button"));

  const byPath = new Map((files ?? []).map((f) => [f.path, f]));
  const selectable = (files ?? []).filter(undoable);
  const others = (files ?? []).filter((f) => !undoable(f));
  const sel = files ? undoSelection(files, ticks, choices) : null;
  const all = sel !== null && sel.hunks!.length === 0 && sel.files!.length === selectable.length;

  const run = () => {
    if (!sel || busy) return;
    setBusy(true);
    setError("");
    api.undo(unit, sel).then(onClose, (e) => {
      setBusy(false);
      setError(`Could not undo: ${String(e)}`);
    });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (trapTab(e)) return;
    if (e.key === "Escape") {
      e.preventDefault();
      e.stopPropagation();
      onClose();
    }
  };

  const flag = (p: FilePreview) => {
    const f = byPath.get(p.path);
    if (!f) return undefined;
    if (f.state === "changed-since") return `changed since ${label}`;
    if (f.binary) return "binary file: restored whole";
    return stateWords[f.state] && view === "turn" ? stateWords[f.state] : undefined;
  };

  const conflict = (p: FilePreview) => {
    const f = byPath.get(p.path);
    if (!f || f.state !== "changed-since" || view !== "undo") return null;
    const choice = choices[f.path] ?? "keep";
    const name = `undo-choice-${f.path}`;
    const choose = (c: UndoChoice) => setChoices((m) => ({ ...m, [f.path]: c }));
    return (
      <fieldset className="undo-conflict" aria-label={`${f.path} changed since ${label}`}>
        <legend>{f.path} changed again since {label}. Undo never overwrites it without your choice:</legend>
        <label><input type="radio" name={name} checked={choice === "keep"} onChange={() => choose("keep")} /> Keep the current content</label>
        <label><input type="radio" name={name} checked={choice === "restore"} onChange={() => choose("restore")} /> Restore the content from before {label}</label>
        <div className="undo-both">
          <DiffView diff={f.turnDiff} label={`What ${label} did to ${f.path}`} language={f.path} />
          <DiffView diff={f.sinceDiff ?? ""} label={`What changed ${f.path} since`} language={f.path} />
        </div>
      </fieldset>
    );
  };

  const shown = view === "turn" ? (files ?? []) : selectable;
  return (
    <div className="approval-backdrop" ref={backdrop}>
      <div className="approval-dialog undo-dialog" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={root} onKeyDown={onKeyDown}>
        <header className="approval-head">
          <h2 id={titleId}>{view === "turn" ? `Changes of ${label}` : only ? `Revert ${only} to before ${label}` : `Undo ${label}`}</h2>
        </header>
        <p className="approval-summary">
          {files === null ? "Reading the changes…"
            : files.length === 0 ? `${label[0].toUpperCase() + label.slice(1)} changed no files.`
            : view === "turn" ? `${files.length} file${files.length === 1 ? "" : "s"} changed. Undo… shows what undoing writes.`
            : "The diff is what undoing writes. Untick a file or a hunk to leave it as it is."}
        </p>
        <div className="approval-body">
          {shown.length > 0 && (
            <ApprovalFiles files={shown.map((f) => asPreview(f, view))} partial={view === "undo"} ticks={ticks} verb="Undo" flag={flag} detail={conflict}
              onToggleFile={(f) => setTicks((t) => toggleFile(f, t))} onToggleKey={(k) => setTicks((t) => toggleKey(k, t))} />
          )}
        </div>
        {view === "undo" && others.length > 0 && (
          <ul className="undo-apart" aria-label="Not restored">
            {others.map((f) => <li key={f.path}><span className="mono">{f.path}</span>: {apart(f)}</li>)}
          </ul>
        )}
        <footer className="approval-foot">
          {error && <p className="approval-error" role="alert">{error}</p>}
          {view === "undo" && files && selectable.length > 0 && !sel && <p className="approval-hint">Nothing is ticked: tick a file or hunk to undo it.</p>}
          <div className="approval-buttons">
            <button type="button" onClick={onClose} disabled={busy}>{view === "turn" ? "Close" : "Cancel"}</button>
            {view === "turn" && selectable.length > 0 && <button type="button" className="primary" onClick={() => setView("undo")}>Undo…</button>}
            {view === "undo" && selectable.length > 0 && (
              <button type="button" className="primary" disabled={busy || !sel} onClick={run}>{all ? "Undo" : "Undo selected"}</button>
            )}
          </div>
        </footer>
      </div>
    </div>
  );
}
