import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import type { ApprovalRequestedPayload } from "../bridge";
import type { ApprovalBackend } from "../bridge/approval";
import { ApprovalDialog } from "./ApprovalDialog";

/** Whether the window has focus, kept up to date. */
function useWindowFocus(): boolean {
  const [focused, setFocused] = useState(() => document.hasFocus());
  useEffect(() => {
    const on = () => setFocused(true);
    const off = () => setFocused(false);
    window.addEventListener("focus", on);
    window.addEventListener("blur", off);
    return () => {
      window.removeEventListener("focus", on);
      window.removeEventListener("blur", off);
    };
  }, []);
  return focused;
}

/**
 * The waiting approvals, one dialog at a time in the order they came, and
 * the window's "waiting for you" mark while one waits unseen. The dialog
 * is drawn at the end of the body, so everything else can be made inert.
 */
export function ApprovalHost({ api, pending, mode, hidden, asking, session }: {
  api: Pick<ApprovalBackend, "resolve" | "repreview" | "setAttention">;
  pending: readonly ApprovalRequestedPayload[];
  mode: string;
  /** Settings is open (a "why" link led there): the dialog waits, and comes back when it closes. */
  hidden?: boolean;
  /** A question of the agent (ask_user) waits in the chat: marked and notified as an approval is. */
  asking?: boolean;
  /** The session the dialogs belong to, named while several are open. */
  session?: string;
}) {
  const focused = useWindowFocus();
  const waiting = (pending.length > 0 || !!asking) && !focused;
  const told = useRef(false);
  useEffect(() => {
    if (waiting === told.current) return;
    told.current = waiting;
    api.setAttention(waiting).catch(() => {});
  }, [api, waiting]);
  useEffect(() => () => {
    if (told.current) api.setAttention(false).catch(() => {});
  }, [api]);

  const current = pending[0];
  if (!current || hidden) return null;
  return createPortal(
    <ApprovalDialog key={current.approvalId} request={current} position={1} total={pending.length} mode={mode} session={session}
      onAnswer={(d) => api.resolve(current.approvalId, d)} onRepreview={() => api.repreview(current.approvalId)} />,
    document.body,
  );
}
