import { createPortal } from "react-dom";
import type { ApprovalRequestedPayload } from "../bridge";
import type { ApprovalBackend } from "../bridge/approval";
import { ApprovalDialog } from "./ApprovalDialog";

/** A waiting request as the queue names it: "reviewer › apply_patch", or the tool alone for the session's own call. */
export function askerName(a: ApprovalRequestedPayload): string {
  return `${a.agent ? `${a.agent} › ` : ""}${a.tool}`;
}

/**
 * The waiting approvals, one dialog at a time in the order they came. A
 * request held (a teammate's: it waits in the Team panel, one click away)
 * opens only when asked for; front is the one asked for (a teammate's
 * "Answer", or a name in the dialog's queue), shown while it waits. The
 * dialog is drawn at the end of the body, so everything else can be made
 * inert. The window's "waiting for you" mark is the backend's: it knows what
 * waits from its own events.
 */
export function ApprovalHost({ api, pending, mode, hidden, session, front, onFront, held }: {
  api: Pick<ApprovalBackend, "resolve" | "repreview"> & Partial<Pick<ApprovalBackend, "recheck">>;
  pending: readonly ApprovalRequestedPayload[];
  mode: string;
  /** Settings is open (a "why" link led there): the dialog waits, and comes back when it closes. */
  hidden?: boolean;
  /** The session the dialogs belong to, named while several are open. */
  session?: string;
  /** The request to show first, while it waits. */
  front?: string;
  /** Brings another waiting request to the front (its name in the dialog's queue). */
  onFront?: (approvalId: string) => void;
  /** Requests that do not open on their own. */
  held?: (a: ApprovalRequestedPayload) => boolean;
}) {
  const current = pending.find((a) => a.approvalId === front) ?? pending.find((a) => !held?.(a));
  if (!current || hidden) return null;
  const others = pending.filter((a) => a !== current).map((a) => ({ id: a.approvalId, name: askerName(a) }));
  return createPortal(
    <ApprovalDialog key={current.approvalId} request={current} position={pending.indexOf(current) + 1} total={pending.length} mode={mode} session={session}
      others={others} onShow={onFront}
      onAnswer={(d) => api.resolve(current.approvalId, d)} onRepreview={() => api.repreview(current.approvalId)}
      onRecheck={api.recheck && ((sel) => api.recheck!(current.approvalId, sel))} />,
    document.body,
  );
}
