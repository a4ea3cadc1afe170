// Settings → Skills: the bound Skills* methods.
import type { TrustBackend } from "./agents";
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

/** One file of the workspace's skill folders as the trust banner shows it. */
export interface PendingSkillFile {
  path: string;
  error?: string;
}

/** The workspace's skills (.agents/skills, .gatehouse/skills) as a trust banner asks for them. */
export function skillsTrustOf(b: SkillsBackend): TrustBackend<PendingSkillFile> {
  return {
    pending: () =>
      b.list().then((v) => {
        const p = v.pending;
        if (!p) return null;
        const files: PendingSkillFile[] = (p.Files ?? []).map((path) => ({ path }));
        for (const r of p.Refused ?? []) files.push({ path: r.path, error: `refused: ${r.reason}` });
        return { hash: p.Hash, files };
      }),
    trust: (hash) => b.trust(hash),
  };
}

export const skillsTrustBackend = skillsTrustOf(skillsBackend);
