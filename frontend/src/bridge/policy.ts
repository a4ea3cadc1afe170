import * as App from "./wailsjs/go/gui/App";
import type { Rule, StandingRef } from "./protocol.gen";

/** One standing rule as Settings → Permissions lists it. */
export interface PolicyRule extends Rule {
  decision: "allow" | "ask" | "deny";
  reason?: string;
  layer: string;
  file?: string;
  line?: number;
  uses: { count: number; last: string };
}

export interface PolicyError { file: string; line?: number; message: string }

export interface PolicyView {
  rules: PolicyRule[];
  errors: PolicyError[];
  untrusted?: string;
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

export interface AuditFilter { session?: string; tool?: string; by?: string; rule?: string; text?: string }

export interface PolicyBackend {
  list(): Promise<PolicyView>;
  remove(id: string): Promise<PolicyView>;
  check(line: string): Promise<PolicyDecided>;
  audit(f: AuditFilter): Promise<AuditEntry[]>;
  exportAudit(f: AuditFilter): Promise<string>;
}

export const policyBackend: PolicyBackend = {
  list: async () => (await App.Policy()) as PolicyView,
  remove: async (id) => (await App.RemovePolicyRule(id)) as PolicyView,
  check: async (line) => (await App.CheckPolicy(line)) as PolicyDecided,
  audit: async (f) => ((await App.AuditLog(f)) ?? []) as AuditEntry[],
  exportAudit: async (f) => await App.ExportAudit(f),
};
