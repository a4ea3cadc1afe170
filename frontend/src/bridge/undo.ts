// Undo's bindings: what a turn changed, what undoing it would do, and
// undoing it (a turn, some files, some hunks), or reverting one file. The
// undo itself comes back as an undo.applied event (folded into the
// transcript by the transcript store).
import { App } from "./bound.gen";
import type { UndoAppliedPayload, UndoFile, UndoSelection } from "./protocol.gen";

export const undoBackend = {
  /** The turns (their ids) and undos (their units) of the open session that changed files, oldest first. */
  units: async (): Promise<string[]> => (await App.UndoUnits()) ?? [],
  /** What undoing unit would do to each file it changed; changes nothing. */
  plan: async (unit: string): Promise<UndoFile[]> => (await App.UndoPlan(unit)) ?? [],
  /** Restores what sel picks of unit. */
  undo: (unit: string, sel: UndoSelection): Promise<UndoAppliedPayload> =>
    App.Undo(unit, sel),
  /** Brings one file back to its content before the session changed it. */
  revertFile: (path: string, restoreChanged: boolean): Promise<UndoAppliedPayload> =>
    App.RevertFile(path, restoreChanged),
};

export type UndoBackend = typeof undoBackend;
