// The dialog's keyboard: what a key press does, decided apart from the DOM.

export type KeyAction = "approve-once" | "approve-session" | "reject" | "focus-reject" | "swallow" | null;

export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** The focused element's tag and role: Enter acts only on buttons. */
  targetTag: string;
  /** Focus is in the note to the model: a user typing why they reject never approves by a shortcut. */
  inNote?: boolean;
}

/**
 * Ctrl+Enter approves once, Ctrl+Shift+Enter for the session; in the note
 * field both send the rejection with the note instead. Esc moves focus to
 * Reject and never submits; a bare Enter anywhere but on a button does
 * nothing (a focused button is a choice the user made).
 */
export function keyAction(e: KeyLike): KeyAction {
  if (e.key === "Escape") return "focus-reject";
  if (e.key !== "Enter" || e.altKey) return null;
  if (e.ctrlKey || e.metaKey) return e.inNote ? "reject" : e.shiftKey ? "approve-session" : "approve-once";
  return e.targetTag === "BUTTON" || e.targetTag === "TEXTAREA" ? null : "swallow";
}

const focusable = "button:not([disabled]), input:not([disabled]), textarea:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex='-1'])";

/** The element Tab or Shift+Tab should move to to stay inside root, or null to let the browser move. */
export function trapTarget(root: HTMLElement, active: Element | null, back: boolean): HTMLElement | null {
  const all = Array.from(root.querySelectorAll<HTMLElement>(focusable)).filter((el) => !el.closest("[hidden]"));
  if (all.length === 0) return null;
  const first = all[0];
  const last = all[all.length - 1];
  if (!active || !root.contains(active)) return back ? last : first;
  if (back && active === first) return last;
  if (!back && active === last) return first;
  return null;
}
