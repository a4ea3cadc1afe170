import { App } from "./bound.gen";
import type { AuditEntry, AuditFilter, Decided, PolicyFileError, PolicyRule, PolicyView, Written } from "./protocol.gen";

/** One standing rule as Settings → Permissions lists it. */
export type { AuditEntry, AuditFilter, PolicyRule, PolicyView };
export type PolicyError = PolicyFileError;
export type PolicyDecided = Decided;
/** A rule as the Policy page's form writes it (a [[rule]] of the file, commands as shell text). */
export type WrittenRule = Written;

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
  list: () => App.Policy(),
  remove: (id) => App.RemovePolicyRule(id),
  add: (rule, scope) => App.AddPolicyRule(rule, scope),
  edit: (id, rule) => App.EditPolicyRule(id, rule),
  trustFile: (hash) => App.TrustPolicyFile(hash),
  check: (tool, target) => App.CheckPolicy(tool, target),
  audit: async (f) => (await App.AuditLog(f)) ?? [],
  exportAudit: (f) => App.ExportAudit(f),
};
