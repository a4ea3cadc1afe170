import type { ComponentType } from "react";
import type { AgentDefinition, Backend, ConnectionResult, ContextUse, SettingsInput, SettingsView } from "../../bridge";
import type { LocalServer } from "../../bridge/localModels";
import type { SandboxBackend } from "../../bridge/sandbox";
import type { TrustedFoldersBackend } from "../../bridge/agents";
import { ModelSection } from "./ModelSection";
import { ContextSection } from "./ContextSection";
import { BudgetSection } from "./BudgetSection";
import { SandboxSettings } from "../SandboxSettings";
import { NetworkSection } from "./NetworkSection";
import { AppearanceSection } from "./AppearanceSection";
import { AgentsSection } from "./AgentsSection";
import { ServersSection } from "./InfoSections";
import { PermissionsSection } from "./PermissionsSection";
import type { PolicyBackend } from "../../bridge/policy";
import { TrustedFoldersSection } from "./TrustedFoldersSection";
import { GitSection } from "./GitSection";
import { SkillsSection } from "./SkillsSection";
import { LanguagesSection } from "./LanguagesSection";
import type { LanguagesBackend } from "../../bridge/languages";
import type { SkillsBackend } from "../../bridge/skills";
import { HooksSection } from "./HooksSection";
import type { HooksBackend } from "../../bridge/hooks";
import type { GitBackend } from "../../bridge/git";

export type VisionBackend = Pick<Backend, "modelVision" | "markModelVision">;

export interface SettingsBackend {
  getSettings(): Promise<SettingsView>;
  saveSettings(s: SettingsInput): Promise<SettingsView>;
  testConnection(s: SettingsInput): Promise<ConnectionResult>;
}

/**
 * What sections may use, handed down from the App. A section that needs a
 * backend of its own adds an optional field here and gets it passed in
 * App.tsx; a section whose backend is absent says so instead of showing.
 */
export interface SettingsDeps {
  backend: SettingsBackend;
  /** The budget limits and the day's spend; absent: the section says it cannot be set here. */
  budget?: Pick<Backend, "getBudget" | "saveBudget">;
  /** Whether the model sees images, and the user's say for a model nothing else speaks of. */
  vision?: VisionBackend;
  /** Looks for model servers on this machine, offered on first run. */
  localModels?: () => Promise<LocalServer[]>;
  sandbox?: SandboxBackend;
  /** The folders trusted to start their servers and offer their agents, with Revoke. */
  trusted?: TrustedFoldersBackend;
  /** The header gauge's last reading: where this session's window came from. */
  contextUse?: ContextUse;
  /** The agents the open session may delegate to. */
  agents?: () => Promise<AgentDefinition[]>;
  /** The trailer of commits and the files copied into new worktrees (Settings → Git). */
  git?: Pick<GitBackend, "commitTrailer" | "setCommitTrailer" | "worktrees" | "setWorktreeCopy">;
  /** Every skill found and the workspace's waiting for trust (Settings → Skills). */
  skills?: SkillsBackend;
  /** Your hooks and the workspace's, Test and Import from Claude Code (Settings → Hooks). */
  hooks?: HooksBackend;
  /** The language servers and their entries (Settings → Language servers). */
  languages?: LanguagesBackend;
  /** The standing policy and the audit log (Settings → Permissions). */
  policy?: PolicyBackend;
  /** Leaves Settings for a side panel beside the chat (absent: the panel is not there). */
  showPanel?: (id: "servers") => void;
}

/** What the shell gives every section. */
export interface SectionProps {
  deps: SettingsDeps;
  /** Says whether the section holds changes not saved yet (its sidebar entry shows it; Close asks first). */
  setDirty: (dirty: boolean) => void;
  /** After a save: the App reads its state again (model, theme, sandbox badge). */
  onSaved: () => void;
  /** Shows another section (a "why" link between sections). */
  goTo: (id: SectionId) => void;
}

export type SectionId = "model" | "context" | "budget" | "sandbox" | "network" | "permissions" | "servers" | "agents" | "skills" | "hooks" | "languages" | "trusted" | "git" | "appearance";

/**
 * One entry of the sidebar. applies states, in the section, when its
 * changes take effect; the rule is the same everywhere: a section's changes
 * are a draft until its own Save, and apply from the moment named here.
 * Sections with nothing to change yet say so instead (applies: null); an
 * action that must not wait (Revoke) says that it acts at once.
 */
export interface SettingsSection {
  id: SectionId;
  title: string;
  applies: string | null;
  Component: ComponentType<SectionProps>;
}

/** The sidebar, in order. To add a section: write its component, add it here (and its id to SectionId). */
export const settingsSections: readonly SettingsSection[] = [
  { id: "model", title: "Model", Component: ModelSection,
    applies: "Changes apply when you press Save: from the next message you send (a running turn keeps its model)." },
  { id: "context", title: "Context", Component: ContextSection,
    applies: "Changes apply when you press Save: to sessions started after that." },
  { id: "budget", title: "Budgets", Component: BudgetSection,
    applies: "Changes apply when you press Save: from the next model request of every session." },
  { id: "sandbox", title: "Sandbox", Component: SandboxSettings,
    applies: "Changes apply when you press Save: from the next command the agent runs." },
  { id: "network", title: "Network", Component: NetworkSection,
    applies: "Changes apply when you press Save: from the next command the agent runs." },
  { id: "permissions", title: "Permissions", Component: PermissionsSection,
    applies: "Nothing here waits for Save: Delete acts at once, and the next call is decided by what is left." },
  { id: "servers", title: "Servers", Component: ServersSection, applies: null },
  { id: "agents", title: "Agents and commands", Component: AgentsSection, applies: null },
  { id: "skills", title: "Skills", Component: SkillsSection,
    applies: "Nothing here waits for Save: trusting the workspace's skills counts from the next message." },
  { id: "hooks", title: "Hooks", Component: HooksSection,
    applies: "Nothing here waits for Save: turning a hook on or off counts from the next call, in open sessions too; an import counts in sessions opened after." },
  { id: "languages", title: "Language servers", Component: LanguagesSection,
    applies: "Changes apply when you press Save: to sessions opened after that (the open one keeps its servers)." },
  { id: "trusted", title: "Trusted folders", Component: TrustedFoldersSection,
    applies: "Nothing here waits for Save: Revoke acts at once, and the open folder's servers and agents stop." },
  { id: "git", title: "Git", Component: GitSection,
    applies: "Changes apply when you press Save: from the next commit." },
  { id: "appearance", title: "Appearance", Component: AppearanceSection,
    applies: "Changes apply when you press Save: at once." },
];

export const nothingToChange = "Nothing to change here yet.";
