import { createPortal } from "react-dom";
import type { ApprovalRequestedPayload } from "../bridge";
import type { ApprovalBackend } from "../bridge/approval";
import { ApprovalDialog } from "./ApprovalDialog";

/**
 * The waiting approvals, one dialog at a time in the order they came. The
 * dialog is drawn at the end of the body, so everything else can be made
 * inert. The window's "waiting for you" mark is the backend's: it knows what
 * waits from its own events.
 */
export function ApprovalHost({ api, pending, mode, hidden, session }: {
  api: Pick<ApprovalBackend, "resolve" | "repreview"> & Partial<Pick<ApprovalBackend, "recheck">>;
  pending: readonly ApprovalRequestedPayload[];
  mode: string;
  /** Settings is open (a "why" link led there): the dialog waits, and comes back when it closes. */
  hidden?: boolean;
  /** The session the dialogs belong to, named while several are open. */
  session?: string;
}) {
  const current = pending[0];
  if (!current || hidden) return null;
  return createPortal(
    <ApprovalDialog key={current.approvalId} request={current} position={1} total={pending.length} mode={mode} session={session}
      onAnswer={(d) => api.resolve(current.approvalId, d)} onRepreview={() => api.repreview(current.approvalId)}
      onRecheck={api.recheck && ((sel) => api.recheck!(current.approvalId, sel))} />,
    document.body,
  );
}
