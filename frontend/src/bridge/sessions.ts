// The sessions menu's side of the bridge: list the workspace's saved
// sessions, start a new one, resume one. Components get a SessionsBackend,
// so unit tests pass a fake one.
import { App } from "./bound.gen";
import type { SessionInfo, Snapshot } from "./protocol.gen";

export type { SessionInfo };


export interface SessionsBackend {
  /** Saved sessions of the workspace, most recently updated first. */
  list(): Promise<SessionInfo[]>;
  /** Closes the open session (its turn is cancelled) and starts an empty one. */
  create(): Promise<Snapshot>;
  /** Closes the open session and reopens id: its transcript, and its history for the model. */
  resume(id: string): Promise<Snapshot>;
}

export const sessionsBackend: SessionsBackend = {
  list: async () => (await App.ListSessions()) ?? [],
  create: () => App.NewSession(),
  resume: (id) => App.ResumeSession(id),
};
