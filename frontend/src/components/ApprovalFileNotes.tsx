import type { FilePreview } from "../bridge";
import { DiffView } from "./DiffView";

/** Where a file of a preview really is, when that differs from the path the model wrote. */
export function resolvedNote(f: FilePreview): string | null {
  const parts: string[] = [];
  if (f.resolvedFrom) parts.push(`${f.movedFrom} is really ${f.resolvedFrom}`);
  if (f.resolvedPath) parts.push(`${f.path} is really ${f.resolvedPath}`);
  return parts.length ? parts.join("; ") : null;
}

/**
 * What the dialog says about one file beyond its diff: where it really is
 * (a symlinked folder, "a/../b") and whether the change replaces a file
 * that exists, with what that file held when a move lands on it.
 */
export function ApprovalFileNotes({ file }: { file: FilePreview }) {
  const where = resolvedNote(file);
  if (!where && !file.replaces) return null;
  return (
    <div className="approval-file-notes">
      {where && <p className="approval-hint" role="note">↪ {where}</p>}
      {file.replaces && (
        <p className="approval-warning" role="note">
          ⚠ {file.path} replaces an existing file: {file.operation === "move"
            ? "what it holds now is lost."
            : "the diff is against its current content."}
        </p>
      )}
      {file.replaces && file.replacedDiff && (
        <details className="approval-replaced">
          <summary>What {file.path} holds now, and what it will hold</summary>
          <DiffView diff={file.replacedDiff} label={`${file.path} (replaced)`} language={file.path} />
        </details>
      )}
    </div>
  );
}
