import { useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import type { FilePreview } from "../bridge";
import { fileState, type Ticks } from "../approval/decision";
import { DiffView, type DiffLayout, type Marks } from "./DiffView";
import { ApprovalFileNotes, resolvedNote } from "./ApprovalFileNotes";

const opWord = { add: "add", update: "update", delete: "delete", move: "move" } as const;

/** The default row warning: the undo store could not keep the file's content from before. */
const unrestorable = (f: FilePreview) => (f.unrestorable ? "cannot be restored" : undefined);

/** The diff to show for f: its hunks one after another when they can be ticked (block i is hunk i). */
export function fileDiff(f: FilePreview, partial: boolean): string {
  if (!partial || !f.hunks?.length) return f.diff;
  const body = f.hunks.map((h) => (h.diff.endsWith("\n") ? h.diff : h.diff + "\n")).join("");
  return `--- a/${f.path}\n+++ b/${f.path}\n${body}`;
}

function Checkbox({ label, state, onToggle, tabIndex, autoFocus }: {
  label: string; state: "all" | "some" | "none"; onToggle: () => void; tabIndex?: number; autoFocus?: boolean;
}) {
  return (
    <input
      type="checkbox"
      aria-label={label}
      checked={state === "all"}
      ref={(el) => { if (el) el.indeterminate = state === "some"; }}
      onChange={onToggle}
      tabIndex={tabIndex}
      data-autofocus={autoFocus || undefined}
    />
  );
}

/**
 * The files of a change: a list with operation badges, +/− counts and (when
 * the call can be approved in part) a checkbox per file, beside the diff of
 * the file in view with a checkbox per hunk. Only the file in view is drawn.
 * The list is one Tab stop: ↑/↓ move between files, Space ticks. It is a
 * grid (a row per file) so screen readers announce the rows and the arrow
 * keys, and a visible hint says so too.
 */
export function ApprovalFiles({ files, partial, ticks, onToggleFile, onToggleKey, verb = "Apply", flag = unrestorable, detail, marks }: {
  files: readonly FilePreview[];
  partial: boolean;
  ticks: Ticks;
  onToggleFile: (f: FilePreview) => void;
  onToggleKey: (key: string) => void;
  /** The word of the checkboxes' names: "Apply a.txt", "Undo hunk 2 of a.txt". */
  verb?: string;
  /** A warning shown in a file's row (default: that its change cannot be undone). */
  flag?: (f: FilePreview) => string | undefined;
  /** Drawn above the diff of the file in view (the undo dialog's choice for a file changed since). */
  detail?: (f: FilePreview) => ReactNode;
  /** The language servers' marks on the diff of a file (the approval dialog's diagnostics). */
  marks?: (path: string) => Marks | undefined;
}) {
  const [viewing, setViewing] = useState(0);
  const [layout, setLayout] = useState<DiffLayout>("inline");
  const list = useRef<HTMLUListElement>(null);
  const hintId = useId();
  const file = files[Math.min(viewing, files.length - 1)];
  const diff = useMemo(() => (file ? fileDiff(file, partial) : ""), [file, partial]);
  const fileMarks = useMemo(() => (file ? marks?.(file.path) : undefined), [file, marks]);

  const move = (e: KeyboardEvent) => {
    if (e.key !== "ArrowDown" && e.key !== "ArrowUp") return;
    e.preventDefault();
    const next = Math.max(0, Math.min(files.length - 1, viewing + (e.key === "ArrowDown" ? 1 : -1)));
    setViewing(next);
    // Keep focus on the same kind of control in the next row.
    const kind = (e.target as HTMLElement).tagName === "INPUT" ? "input" : "button.approval-file";
    requestAnimationFrame(() => list.current?.querySelectorAll<HTMLElement>(`li ${kind}`)[next]?.focus());
  };

  const hunkControl = partial && file?.hunks?.length
    ? (block: number) => {
        const h = file.hunks![block];
        if (!h) return null;
        return (
          <Checkbox label={`${verb} hunk ${h.id.slice(h.id.lastIndexOf("#") + 1)} of ${file.path}`} state={ticks.has(h.id) ? "all" : "none"} onToggle={() => onToggleKey(h.id)} />
        );
      }
    : undefined;

  return (
    <div className="approval-files">
      <div className="approval-file-pane">
        <ul className="approval-file-list" role="grid" aria-label="Files" aria-describedby={files.length > 1 ? hintId : undefined} ref={list} onKeyDown={move}>
          {files.map((f, i) => {
            const current = i === viewing;
            return (
              <li key={f.path + i} role="row" aria-selected={current} className={current ? "current" : undefined}>
                {partial && (
                  <span role="gridcell" className="approval-tick-cell">
                    <Checkbox label={`${verb} ${f.path}`} state={fileState(f, ticks)} onToggle={() => onToggleFile(f)}
                      tabIndex={current ? 0 : -1} autoFocus={current} />
                  </span>
                )}
                <span role="gridcell" className="approval-file-cell">
                  <button type="button" className="approval-file" aria-pressed={current} tabIndex={current ? 0 : -1}
                    data-autofocus={(!partial && current) || undefined} onClick={() => setViewing(i)} onFocus={() => setViewing(i)}>
                    <span className="mono approval-path" title={(f.movedFrom ? `${f.movedFrom} → ${f.path}` : f.path) + (resolvedNote(f) ? ` (${resolvedNote(f)})` : "")}>{f.path}</span>
                    <span className={`badge op-${f.operation}`}>{opWord[f.operation] ?? f.operation}</span>
                    {f.replaces && <span className="badge badge-warn">replaces</span>}
                    <span className="approval-counts">
                      {f.added > 0 && <span className="count-add">+{f.added}</span>} {f.removed > 0 && <span className="count-del">−{f.removed}</span>}
                    </span>
                    {flag(f) && <span className="approval-flag">⚠ {flag(f)}</span>}
                  </button>
                </span>
              </li>
            );
          })}
        </ul>
        {files.length > 1 && (
          <p className="approval-list-hint" id={hintId}>
            <kbd>↑</kbd>/<kbd>↓</kbd> other files{partial ? <> · <kbd>Space</kbd> ticks</> : null}
          </p>
        )}
      </div>
      {file && (
        <section className="approval-diff" aria-label={`Changes to ${file.path}`}>
          <div className="approval-diff-bar">
            <span className="mono">{file.movedFrom ? `${file.movedFrom} → ${file.path}` : file.path}</span>
            <div className="segmented" role="group" aria-label="Diff layout">
              <button type="button" aria-pressed={layout === "inline"} onClick={() => setLayout("inline")}>Inline</button>
              <button type="button" aria-pressed={layout === "split"} onClick={() => setLayout("split")}>Side by side</button>
            </div>
          </div>
          <ApprovalFileNotes file={file} />
          {flag(file) && <p className="approval-flag-line" role="note">⚠ {file.path}: {file.unrestorable ?? flag(file)}</p>}
          {detail?.(file)}
          <DiffView key={file.path} diff={diff} layout={layout} language={file.path} name={file.path} hunkControl={hunkControl} marks={fileMarks} fill />
        </section>
      )}
    </div>
  );
}
