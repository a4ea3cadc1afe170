import { useState } from "react";
import type { Diagnostic } from "../../bridge";
import type { GitFileDiff } from "../../bridge/git";
import { DiffView } from "../DiffView";
import { isImagePath, WorkspacePicture } from "../WorkspacePicture";

const statusWords: Record<string, string> = { A: "added", D: "deleted", M: "modified" };

/** What a list of files offers: staged files unstage, unstaged ones stage or discard; a branch's are only shown. */
export type FileKind = "staged" | "unstaged" | "branch";

/**
 * One file of the staged or unstaged diff: its name and counts, buttons for
 * the whole file, and its diff in the app's one diff view, each "@@" row
 * with its own buttons.
 */
export function ChangesFile({ file, kind, busy, act, image, errors }: {
  file: GitFileDiff;
  /** The language servers' errors in the file now: the row is marked with their count. */
  errors?: readonly Diagnostic[];
  /** A workspace image as a data URL: a changed picture is shown as it is now. */
  image?: (path: string) => Promise<string>;
  kind: FileKind;
  busy: boolean;
  act: (what: "stage" | "unstage" | "discard", path: string, hunk?: { id: string; n: number }) => void;
}) {
  const [open, setOpen] = useState(true);
  const hunkControl = kind === "branch" ? undefined : (block: number) => {
    const h = (file.hunks ?? [])[block];
    if (!h) return null;
    const n = block + 1;
    return (
      <span className="changes-hunk-buttons">
        {kind === "unstaged" ? (
          <>
            <button type="button" className="secondary" disabled={busy} onClick={() => act("stage", file.path, { id: h.id, n })}
              aria-label={`Stage hunk ${n} of ${file.path}`}>Stage hunk</button>
            <button type="button" className="secondary" disabled={busy} onClick={() => act("discard", file.path, { id: h.id, n })}
              aria-label={`Discard hunk ${n} of ${file.path}`}>Discard hunk</button>
          </>
        ) : (
          <button type="button" className="secondary" disabled={busy} onClick={() => act("unstage", file.path, { id: h.id, n })}
            aria-label={`Unstage hunk ${n} of ${file.path}`}>Unstage hunk</button>
        )}
      </span>
    );
  };
  const n = errors?.length ?? 0;
  const errorWords = n === 1 ? "1 error" : `${n} errors`;
  return (
    <li className="changes-file" aria-label={`${file.path}, ${statusWords[file.status] ?? file.status}${n ? `, ${errorWords}` : ""}`}>
      <div className="changes-file-row">
        <button type="button" className="changes-toggle" aria-expanded={open} onClick={() => setOpen((o) => !o)}
          aria-label={`${open ? "Hide" : "Show"} the diff of ${file.path}`}>{open ? "▾" : "▸"}</button>
        <span className="mono changes-path">{file.path}</span>
        <span className={`badge op-${file.status === "A" ? "add" : file.status === "D" ? "delete" : "modify"}`} title={statusWords[file.status]}>{file.status}</span>
        <span className="changes-counts mono" aria-label={`${file.added} added, ${file.removed} removed`}>+{file.added} −{file.removed}</span>
        {n > 0 && (
          <span className="badge changes-errors" title={errors!.map((d) => `${d.line}:${d.col} ${d.message}`).join("\n")}>⚠ {errorWords}</span>
        )}
        <span className="spacer" />
        {kind === "branch" ? null : kind === "unstaged" ? (
          <>
            <button type="button" className="secondary" disabled={busy} onClick={() => act("stage", file.path)} aria-label={`Stage ${file.path}`}>Stage</button>
            <button type="button" className="secondary" disabled={busy} onClick={() => act("discard", file.path)} aria-label={`Discard the changes to ${file.path}`}>Discard</button>
          </>
        ) : (
          <button type="button" className="secondary" disabled={busy} onClick={() => act("unstage", file.path)} aria-label={`Unstage ${file.path}`}>Unstage</button>
        )}
      </div>
      {open && (file.binary
        ? image && isImagePath(file.path) && file.status !== "D"
          ? <WorkspacePicture load={image} path={file.path} version={file.diff} />
          : <p className="settings-note">A binary file: no text diff to show.</p>
        : (file.hunks ?? []).length > 0 && <DiffView diff={file.diff} name={file.path} language={file.path} hunkControl={hunkControl} />)}
    </li>
  );
}
