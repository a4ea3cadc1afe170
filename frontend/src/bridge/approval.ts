// The approval gate's bindings: answering a dialog and the session's rules.
// The window's "waiting for you" mark is the backend's own (from its events
// and the focus the process panel reports). Events come through bridge/index.ts
// (approval.requested / approval.stale / approval.resolved, folded by the
// transcript store).
import { App } from "./bound.gen";
import type { Decision, Rule } from "./protocol.gen";

export const approvalBackend = {
  /** Answers request approvalId. The first answer wins: a second one fails. */
  resolve: (approvalId: string, decision: Decision): Promise<void> =>
    App.ResolveApproval(approvalId, decision),
  /**
   * Prepares request approvalId again after its files changed on disk
   * (approval.stale): approval.requested comes again, same id, fresh preview.
   */
  repreview: (approvalId: string): Promise<void> => App.RepreviewApproval(approvalId),
  /** The open session's rules, oldest first. */
  listRules: async (): Promise<Rule[]> => (await App.ListRules()) ?? [],
  /** Removes a rule; the calls it covered ask again. */
  revokeRule: (id: string): Promise<void> => App.RevokeRule(id),
};

export type ApprovalBackend = typeof approvalBackend;
