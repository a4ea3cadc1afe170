// The approval gate's bindings: answering a dialog and the session's rules.
// The window's "waiting for you" mark is the backend's own (from its events
// and the focus the process panel reports). Events come through bridge/index.ts
// (approval.requested / approval.stale / approval.resolved, folded by the
// transcript store).
import { App } from "./bound.gen";
import type { Decision, ProposalSelection, Rule } from "./protocol.gen";

export const approvalBackend = {
  /** Answers request approvalId. The first answer wins: a second one fails. */
  resolve: (approvalId: string, decision: Decision): Promise<void> =>
    App.ResolveApproval(approvalId, decision),
  /**
   * Prepares request approvalId again after its files changed on disk
   * (approval.stale): approval.requested comes again, same id, fresh preview.
   */
  repreview: (approvalId: string): Promise<void> => App.RepreviewApproval(approvalId),
  /**
   * Has the language servers check only the ticked files and hunks of request
   * approvalId (all of it when both lists are empty): approval.diagnostics
   * comes with "checking" for that selection, then the outcome.
   */
  recheck: (approvalId: string, sel: ProposalSelection): Promise<void> => App.RecheckApproval(approvalId, sel),
  /** The open session's rules, oldest first. */
  listRules: async (): Promise<Rule[]> => (await App.ListRules()) ?? [],
  /** Removes a rule; the calls it covered ask again. */
  revokeRule: (id: string): Promise<void> => App.RevokeRule(id),
};

/** recheck is optional: a host without language servers need not offer it. */
export type ApprovalBackend = Omit<typeof approvalBackend, "recheck"> & Partial<Pick<typeof approvalBackend, "recheck">>;
