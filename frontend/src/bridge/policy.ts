import * as App from "./wailsjs/go/gui/App";
import type { Rule, StandingRef } from "./protocol.gen";
import type { policy } from "./wailsjs/go/models";

/** One standing rule as Settings → Permissions lists it. */
export interface PolicyRule extends Rule {
  decision: "allow" | "ask" | "deny";
  reason?: string;
  layer: string;
  file?: string;
  line?: number;
  uses: { count: number; last: string };
  /** The rule as the edit form starts from. */
  written: WrittenRule;
}

export interface PolicyError { file: string; line?: number; message: string }

export interface PolicyView {
  rules: PolicyRule[];
  errors: PolicyError[];
  untrusted?: string;
  untrustedText?: string;
  untrustedHash?: string;
  userFile: string;
  workspaceFile?: string;
}

export interface PolicyDecided {
  decision: "" | "allow" | "ask" | "deny";
  rules?: PolicyRule[];
  why: string;
}

export interface AuditEntry {
  time: string;
  session: string;
  callId: string;
  tool: string;
  agent?: string;
  summary?: string;
  mode: string;
  by: "mode" | "rule" | "policy";
  decision: string;
  ruleIds?: string[];
  standing?: StandingRef[];
}

/** A rule as the Policy page's form writes it (a [[rule]] of the file, commands as shell text). */
export type WrittenRule = Omit<policy.Written, "decision"> & { decision: "allow" | "ask" | "deny" };

export interface AuditFilter { session?: string; tool?: string; by?: string; rule?: string; text?: string }

export interface PolicyBackend {
  list(): Promise<PolicyView>;
  remove(id: string): Promise<PolicyView>;
  add(rule: WrittenRule, scope: "workspace" | "everywhere"): Promise<PolicyView>;
  edit(id: string, rule: WrittenRule): Promise<PolicyView>;
  trustFile(hash: string): Promise<PolicyView>;
  /** Which rule decides a call of tool: a bash command line, a file tool's workspace-relative path, "" for a whole tool. */
  check(tool: string, target: string): Promise<PolicyDecided>;
  audit(f: AuditFilter): Promise<AuditEntry[]>;
  exportAudit(f: AuditFilter): Promise<string>;
}

export const policyBackend: PolicyBackend = {
  list: async () => (await App.Policy()) as PolicyView,
  remove: async (id) => (await App.RemovePolicyRule(id)) as PolicyView,
  add: async (rule, scope) => (await App.AddPolicyRule(rule, scope)) as PolicyView,
  edit: async (id, rule) => (await App.EditPolicyRule(id, rule)) as PolicyView,
  trustFile: async (hash) => (await App.TrustPolicyFile(hash)) as PolicyView,
  check: async (tool, target) => (await App.CheckPolicy(tool, target)) as PolicyDecided,
  audit: async (f) => ((await App.AuditLog(f)) ?? []) as AuditEntry[],
  exportAudit: async (f) => await App.ExportAudit(f),
};
