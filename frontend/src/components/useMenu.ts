import { useCallback, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";

const items = '[role="menuitem"], [role="menuitemradio"]';

/**
 * What the header's menus share (SessionsMenu, ModelMenu): a button that
 * opens a role=menu popover; on opening, focus goes to the item focusFirst
 * selects (again whenever refocusOn changes, e.g. when a list arrives);
 * arrows, Home and End move between items, Esc closes and gives focus back
 * to the button, Tab and a click outside close. Spread buttonProps on the
 * button and menuProps on the menu.
 */
export function useMenu(focusFirst: string, refocusOn?: unknown) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const id = useId();
  // Whether the menu is open as far as the user is concerned: close() clears
  // it at once, so an effect still pending from before never moves focus
  // back into a menu that is about to go away.
  const showing = useRef(false);

  const close = useCallback((refocus: boolean) => {
    showing.current = false;
    setOpen(false);
    if (refocus) button.current?.focus();
  }, []);

  // A layout effect: focus and the Esc listener are in place before the
  // menu is painted, so a key pressed as it appears already reaches them.
  useLayoutEffect(() => {
    if (!open) return;
    // Focus moves in on opening, and back in when the items were redrawn
    // under it (a list arriving can reorder them, and a moved node loses
    // focus); never away from an item the user moved to.
    if (showing.current && !menu.current?.contains(document.activeElement)) menu.current?.querySelector<HTMLElement>(focusFirst)?.focus();
    const outside = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !button.current?.contains(t)) close(false);
    };
    // Esc closes wherever focus is while the menu is open.
    const escape = (e: globalThis.KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented) {
        e.preventDefault();
        close(true);
      }
    };
    document.addEventListener("mousedown", outside);
    document.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("mousedown", outside);
      document.removeEventListener("keydown", escape);
    };
  }, [open, close, focusFirst, refocusOn]);

  const onKeyDown = (e: KeyboardEvent) => {
    const list = Array.from(menu.current?.querySelectorAll<HTMLElement>(items) ?? []);
    const i = list.indexOf(document.activeElement as HTMLElement);
    const go = (j: number) => list[(j + list.length) % list.length]?.focus();
    if (e.key === "Escape") close(true);
    else if (e.key === "ArrowDown") go(i + 1);
    else if (e.key === "ArrowUp") go(i < 0 ? -1 : i - 1);
    else if (e.key === "Home") go(0);
    else if (e.key === "End") go(list.length - 1);
    else if (e.key === "Tab") close(false);
    else return;
    if (e.key !== "Tab") e.preventDefault();
  };

  return {
    open,
    close,
    buttonProps: {
      ref: button,
      "aria-haspopup": "menu" as const,
      "aria-expanded": open,
      "aria-controls": open ? `${id}-menu` : undefined,
      onClick: () => {
        if (open) return close(false);
        showing.current = true;
        setOpen(true);
      },
    },
    menuProps: { ref: menu, id: `${id}-menu`, role: "menu", onKeyDown },
  };
}
