import { useEffect, useRef } from "react";

/** Every keyboard shortcut of the window, for the help overlay (F1). */
export const SHORTCUTS: { keys: string; what: string; where: string }[] = [
  { keys: "Ctrl+N", what: "Start a new session", where: "anywhere but a text field, while no turn runs" },
  { keys: "Ctrl+,", what: "Open the settings", where: "anywhere but a text field" },
  { keys: "Ctrl+L", what: "Put the cursor in the message box", where: "anywhere but a text field" },
  { keys: "Ctrl+F", what: "Find in the conversation", where: "anywhere but the message box" },
  { keys: "F1", what: "Show or hide this list", where: "anywhere but a text field" },
  { keys: "Enter / Shift+Enter", what: "Send the message / a new line", where: "message box" },
  { keys: "Esc", what: "Stop the running turn", where: "anywhere while a turn runs" },
  { keys: "Enter / Shift+Enter / Esc", what: "Next match / previous match / close", where: "find box" },
  { keys: "Ctrl+Enter", what: "Approve once", where: "approval dialog" },
  { keys: "Ctrl+Shift+Enter", what: "Approve for the session", where: "approval dialog" },
  { keys: "Space", what: "Tick or untick a file or hunk", where: "approval dialog" },
  { keys: "Esc", what: "Move to Reject (never submits)", where: "approval dialog" },
  { keys: "Ctrl+Enter", what: "Reject with the note", where: "approval dialog's note" },
];

/** Whether el takes typed text: shortcuts then leave the keys to it. */
export function isTextField(el: Element | null): boolean {
  if (!el) return false;
  if (el instanceof HTMLTextAreaElement || (el as HTMLElement).isContentEditable) return true;
  if (el instanceof HTMLInputElement) {
    return !["checkbox", "radio", "button", "submit", "reset", "range", "color", "file", "image"].includes(el.type);
  }
  return false;
}

export interface ShortcutActions {
  newSession?: () => void;
  openSettings: () => void;
  focusComposer: () => void;
  find: () => void;
  toggleHelp: () => void;
}

/**
 * The window's shortcuts. They act only when focus is not in a text field
 * (Ctrl+F: not in the message box) and no modal dialog is open, so typing
 * never triggers them.
 */
export function useShortcuts(actions: ShortcutActions) {
  const ref = useRef(actions);
  ref.current = actions;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || document.querySelector("[aria-modal='true']")) return;
      const a = ref.current;
      const focus = document.activeElement;
      const ctrl = (e.ctrlKey || e.metaKey) && !e.shiftKey;
      if (ctrl && e.key.toLowerCase() === "f") {
        if (focus instanceof HTMLTextAreaElement && focus.getAttribute("aria-label") === "Message") return;
        e.preventDefault();
        a.find();
        return;
      }
      if (isTextField(focus)) return;
      let act: (() => void) | undefined;
      if (e.key === "F1" && !e.ctrlKey) act = a.toggleHelp;
      else if (ctrl && e.key.toLowerCase() === "n") act = a.newSession;
      else if (ctrl && e.key === ",") act = a.openSettings;
      else if (ctrl && e.key.toLowerCase() === "l") act = a.focusComposer;
      if (!act) return;
      e.preventDefault();
      act();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);
}
