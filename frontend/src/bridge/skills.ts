// Settings → Skills: the bound Skills* methods.
import { App } from "./bound.gen";
import type { Skill, SkillsView } from "./protocol.gen";

export type { Skill, SkillsView };

export interface SkillsBackend {
  /** Every skill found for the open workspace, offered or not, and the workspace's waiting for trust. */
  list(): Promise<SkillsView>;
  /** Trusts the workspace's skills as shown (hash); the open session offers them at once. */
  trust(hash: string): Promise<void>;
}

export const skillsBackend: SkillsBackend = {
  // Called in a promise: a page without the bindings (unit tests) gets a
  // rejection the section shows, not a throw while it renders.
  list: () => Promise.resolve().then(() => App.Skills()),
  trust: (hash) => Promise.resolve().then(() => App.SkillsTrustWorkspace(hash)),
};
