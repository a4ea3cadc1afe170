// Settings → Hooks: the bound Hooks* methods.
import { App } from "./bound.gen";
import type { ClaudeImport, HookEntry, HookRun, HooksView, ImportCandidate, ImportPick } from "./protocol.gen";

export type { ClaudeImport, HookEntry, HooksView, ImportCandidate, ImportPick };

export interface HooksBackend {
  /** Your hooks and the open workspace's, by event, with their source and whether each is on. */
  list(): Promise<HooksView>;
  /** Turns a hook on or off (saved; sessions opened after it run it, or do not). */
  setOn(id: string, on: boolean): Promise<HooksView>;
  /** Runs one of your hooks once on a sample of its event; its verdict, output, exit code and time. */
  test(id: string): Promise<HookRun>;
  /** Reads Claude Code's settings file ("": ~/.claude/settings.json); check runs the fail-closed hooks on a sample. */
  importPreview(from: string, check: boolean): Promise<ClaudeImport>;
  /** Writes the picked hooks into your hooks file, merged. */
  importHooks(from: string, picks: ImportPick[]): Promise<HooksView>;
}

export const hooksBackend: HooksBackend = {
  // In a promise: a page without the bindings (unit tests) gets a rejection the section shows.
  list: () => Promise.resolve().then(() => App.Hooks()),
  setOn: (id, on) => App.SetHookOn(id, on),
  test: (id) => App.TestHook(id),
  importPreview: (from, check) => App.HooksImportPreview(from, check),
  importHooks: (from, picks) => App.HooksImport(from, picks),
};
