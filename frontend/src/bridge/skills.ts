// Settings → Skills: the bound Skills* methods.
import { App } from "./bound.gen";
import type { Skill, SkillsView } from "./protocol.gen";

export type { Skill, SkillsView };

export interface SkillsBackend {
  /** Every skill found for the open workspace, offered or not, and the workspace's waiting for trust. */
  list(): Promise<SkillsView>;
  /** Trusts the workspace's skills as shown (hash); the open session offers them at once. */
  trust(hash: string): Promise<void>;
  /** Turns a skill on or off (saved; the open session counts it from its next request). */
  setOn(name: string, on: boolean): Promise<SkillsView>;
  /** Adds or removes Claude Code's ~/.claude/skills as a source. */
  setClaude(on: boolean): Promise<SkillsView>;
}

export const skillsBackend: SkillsBackend = {
  // Called in a promise: a page without the bindings (unit tests) gets a
  // rejection the section shows, not a throw while it renders.
  list: () => Promise.resolve().then(() => App.Skills()),
  trust: (hash) => Promise.resolve().then(() => App.SkillsTrustWorkspace(hash)),
  setOn: (name, on) => App.SetSkillOn(name, on),
  setClaude: (on) => App.SetSkillsClaude(on),
};
