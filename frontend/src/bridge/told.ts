// "What the model was told": the bound Told method.
import { App } from "./bound.gen";
import type { Activation, File as InstructionFile, ToldView } from "./protocol.gen";

export type { Activation, InstructionFile, ToldView };

/** What the open session's model was told by files (instructions, skills). */
export type LoadTold = () => Promise<ToldView>;

// Called in a promise: a page without the bindings (unit tests) gets a
// rejection the dialog shows, not a throw while it renders.
export const loadTold: LoadTold = () => Promise.resolve().then(() => App.Told());
