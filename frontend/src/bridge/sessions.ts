// The sessions menu's side of the bridge: list the workspace's saved
// sessions, start a new one, resume one. Components get a SessionsBackend,
// so unit tests pass a fake one.
import * as App from "./wailsjs/go/gui/App";
import type { Snapshot } from "./protocol.gen";

/** A saved session of the workspace. */
export interface SessionInfo {
  id: string;
  /** The first message, shortened. */
  title: string;
  /** Unix milliseconds. */
  createdMs: number;
  updatedMs: number;
  turns: number;
  /** The session open in the window. */
  current: boolean;
}

export interface SessionsBackend {
  /** Saved sessions of the workspace, most recently updated first. */
  list(): Promise<SessionInfo[]>;
  /** Closes the open session (its turn is cancelled) and starts an empty one. */
  create(): Promise<Snapshot>;
  /** Closes the open session and reopens id: its transcript, and its history for the model. */
  resume(id: string): Promise<Snapshot>;
}

export const sessionsBackend: SessionsBackend = {
  list: async () => ((await App.ListSessions()) ?? []) as SessionInfo[],
  create: () => App.NewSession() as unknown as Promise<Snapshot>,
  resume: (id) => App.ResumeSession(id) as unknown as Promise<Snapshot>,
};
