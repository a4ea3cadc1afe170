import { useCallback, useEffect, useMemo, useState, type ReactNode } from "react";
import type { UndoAppliedPayload } from "../bridge";
import type { UndoBackend } from "../bridge/undo";
import { UndoDialog } from "../components/UndoDialog";
import type { UndoView } from "./selection";

function same(a: ReadonlySet<string>, b: string[]): boolean {
  return a.size === b.length && b.every((x) => a.has(x));
}

/** What transcript items and the file tree may ask of undo. */
export interface UndoActions {
  /** The turns and undos of the session that changed files. */
  units: ReadonlySet<string>;
  /** Opens the dialog for unit: its changes ("turn") or undoing it ("undo"), all files or only one. */
  open: (unit: string, view: UndoView, only?: string) => void;
  /** Brings path back to its content before the session; restoreChanged also when it changed since the agent's last change. */
  revert: (path: string, restoreChanged: boolean) => Promise<UndoAppliedPayload>;
}

/**
 * The session's undo: which units changed files (read again whenever
 * refreshKey changes: a turn stopped, an undo was made; and on each
 * fs.changed, since a command's changes are recorded as the watcher sees
 * them, after its turn may have stopped), the dialog, and one file's revert.
 */
export function useUndo(api: UndoBackend | undefined, refreshKey: string, onFsChanged?: (cb: () => void) => () => void): { actions?: UndoActions; dialog: ReactNode } {
  const [units, setUnits] = useState<ReadonlySet<string>>(new Set());
  const [shown, setShown] = useState<{ unit: string; view: UndoView; only?: string } | null>(null);
  const [fsTick, setFsTick] = useState(0);

  useEffect(() => onFsChanged?.(() => setFsTick((n) => n + 1)), [onFsChanged]);
  useEffect(() => {
    if (!api) return;
    let live = true;
    api.units().then((u) => live && setUnits((old) => (same(old, u) ? old : new Set(u))), () => live && setUnits(new Set()));
    return () => {
      live = false;
    };
  }, [api, refreshKey, fsTick]);

  const open = useCallback((unit: string, view: UndoView, only?: string) => setShown({ unit, view, only }), []);
  const actions = useMemo(() => api && { units, open, revert: api.revertFile }, [api, units, open]);
  const dialog = api && shown ? <UndoDialog key={`${shown.unit}:${shown.view}:${shown.only ?? ""}`} api={api} unit={shown.unit} view={shown.view} only={shown.only} onClose={() => setShown(null)} /> : null;
  return { actions, dialog };
}
