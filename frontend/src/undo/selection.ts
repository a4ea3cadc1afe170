// What the undo dialog shows and sends, pure so tests need no DOM: each
// file of a turn as the approval dialog's FilePreview (so the same file
// list, diff view and per-file / per-hunk ticks draw it), and the
// UndoSelection for what is ticked.
import type { FilePreview, UndoAppliedPayload, UndoChoice, UndoFile, UndoSelection } from "../bridge";
import { fileKeys, fileState, type Ticks } from "../approval/decision";

export type UndoView = "turn" | "undo";

function counts(diff: string): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const l of diff.split("\n")) {
    if (l.startsWith("+++") || l.startsWith("---")) continue;
    if (l.startsWith("+")) added++;
    else if (l.startsWith("-")) removed++;
  }
  return { added, removed };
}

const turnOp = { add: "delete", delete: "add", update: "update", move: "move" } as const;

/**
 * f as a FilePreview. view "turn" shows what the turn did (no hunks: it is
 * reviewed whole); "undo" shows what undoing writes, hunk by hunk.
 */
export function asPreview(f: UndoFile, view: UndoView): FilePreview {
  if (view === "turn") {
    return {
      path: f.path, operation: turnOp[f.operation] ?? "update", ...counts(f.turnDiff), diff: f.turnDiff,
      oldHash: "", oldContent: "", newContent: "",
    };
  }
  return {
    path: f.path, operation: f.operation, added: f.added, removed: f.removed, diff: f.undoDiff, hunks: f.hunks,
    oldHash: "", oldContent: f.now, newContent: f.prior,
  };
}

/** Files undo can act on: the others are listed apart, with why. */
export function undoable(f: UndoFile): boolean {
  return f.state === "restore" || f.state === "changed-since";
}

/** Everything undoable ticked: how the dialog opens. */
export function allUndoTicked(files: readonly UndoFile[]): Ticks {
  return new Set(files.filter(undoable).flatMap((f) => fileKeys(asPreview(f, "undo"))));
}

/**
 * The selection for what is ticked: fully ticked files by path, the ticked
 * hunks of the others, and the choice for each file changed since (keep
 * unless the user chose restore). null when nothing is ticked.
 */
export function undoSelection(files: readonly UndoFile[], t: Ticks, choices: Readonly<Record<string, UndoChoice>>): UndoSelection | null {
  const sel: UndoSelection = { files: [], hunks: [], choices: {} };
  for (const f of files.filter(undoable)) {
    const p = asPreview(f, "undo");
    const s = fileState(p, t);
    if (s === "all") sel.files!.push(f.path);
    else if (s === "some") sel.hunks!.push(...(p.hunks ?? []).map((h) => h.id).filter((id) => t.has(id)));
    if (s !== "none" && f.state === "changed-since") sel.choices![f.path] = choices[f.path] ?? "keep";
  }
  if (sel.files!.length === 0 && sel.hunks!.length === 0) return null;
  return sel;
}

/** "Undid turn 2: restored a.txt, b.txt; kept c.txt (changed since the turn)". */
export function undoWords(u: UndoAppliedPayload, turnLabel: (unit: string) => string): string {
  const parts: string[] = [];
  if (u.restored?.length) parts.push(`restored ${u.restored.join(", ")}`);
  for (const [p, why] of Object.entries(u.skipped ?? {})) parts.push(`left ${p} (${why})`);
  return `Undid ${turnLabel(u.of)}: ${parts.join("; ") || "nothing to restore"}`;
}

/** "turn 2" for "<session>-t2", "the undo 1" for "undo-1", "file a.txt" for a revert. */
export function unitLabel(unit: string): string {
  const t = /-t(\d+)$/.exec(unit);
  if (t) return `turn ${t[1]}`;
  const u = /^undo-(\d+)$/.exec(unit);
  if (u) return `undo ${u[1]}`;
  const d = /^discard-(\d+)$/.exec(unit);
  if (d) return `discard ${d[1]}`;
  if (unit.startsWith("file:")) return `the changes to ${unit.slice(5)}`;
  return unit;
}
