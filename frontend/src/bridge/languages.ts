// Settings → Language servers: the bound LanguageServers methods.
import { App } from "./bound.gen";
import type { LanguageServerEntry, LanguageServerView, LanguageServersView } from "./protocol.gen";

export type { LanguageServerEntry, LanguageServerView, LanguageServersView };

export interface LanguagesBackend {
  /** The built-in and configured servers, each with its command's place and its state in the open session. */
  list(): Promise<LanguageServersView>;
  /** Saves one entry (refused with why when it cannot run); sessions opened after it use it. */
  save(e: LanguageServerEntry): Promise<LanguageServersView>;
  /** Removes the user's entry: a built-in server is back to its own settings. */
  remove(name: string): Promise<LanguageServersView>;
}

export const languagesBackend: LanguagesBackend = {
  // In a promise: a page without the bindings gets a rejection the section shows.
  list: () => Promise.resolve().then(() => App.LanguageServers()),
  save: (e) => App.SaveLanguageServer(e),
  remove: (name) => App.RemoveLanguageServer(name),
};
