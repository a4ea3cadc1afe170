import { useLayoutEffect, type KeyboardEvent, type RefObject } from "react";
import { inertOutside } from "./inert";
import { trapTarget } from "./keys";

/**
 * What a modal dialog does with focus (the approval dialog, the undo
 * dialog): while it is open the page behind is inert; focus starts on
 * start() and, should it leave, comes back to back(); it goes back where
 * it was when the dialog closes. The returned handler keeps Tab and
 * Shift+Tab inside root; it reports whether it handled the key.
 */
export function useModalFocus(
  backdrop: RefObject<HTMLElement | null>,
  root: RefObject<HTMLElement | null>,
  start: () => HTMLElement | null | undefined,
  back: () => HTMLElement | null | undefined = start,
): (e: KeyboardEvent<HTMLElement>) => boolean {
  // A layout effect: focus moves before the dialog is painted, so a key
  // pressed as it appears never lands on the page behind.
  useLayoutEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const undoInert = backdrop.current ? inertOutside(backdrop.current) : () => {};
    start()?.focus();
    const keepInside = (e: FocusEvent) => {
      if (root.current && e.target instanceof Node && !root.current.contains(e.target)) back()?.focus();
    };
    document.addEventListener("focusin", keepInside);
    return () => {
      document.removeEventListener("focusin", keepInside);
      undoInert();
      if (before && document.contains(before)) before.focus();
    };
    // Once per dialog: start and back read refs when they run.
  }, []);

  return (e) => {
    if (e.key !== "Tab") return false;
    const to = trapTarget(e.currentTarget, document.activeElement, e.shiftKey);
    if (to) {
      e.preventDefault();
      to.focus();
    }
    return true;
  };
}
