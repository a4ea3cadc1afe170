import { App } from "./bound.gen";
import type { AuditEntry, AuditFilter, Decided, PolicyFileError, PolicyRule, PolicyView } from "./protocol.gen";

/** One standing rule as Settings → Permissions lists it. */
export type { AuditEntry, AuditFilter, PolicyRule, PolicyView };
export type PolicyError = PolicyFileError;
export type PolicyDecided = Decided;

export interface PolicyBackend {
  list(): Promise<PolicyView>;
  remove(id: string): Promise<PolicyView>;
  check(line: string): Promise<PolicyDecided>;
  audit(f: AuditFilter): Promise<AuditEntry[]>;
  exportAudit(f: AuditFilter): Promise<string>;
}

export const policyBackend: PolicyBackend = {
  list: () => App.Policy(),
  remove: (id) => App.RemovePolicyRule(id),
  check: (line) => App.CheckPolicy(line),
  audit: async (f) => (await App.AuditLog(f)) ?? [],
  exportAudit: (f) => App.ExportAudit(f),
};
