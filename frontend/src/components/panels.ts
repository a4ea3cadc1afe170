import { useCallback, useEffect, useRef, useState } from "react";

// The side panels' layout: which open panels fit beside the chat, which
// fold to their rail (a vertical tab: clicking it brings that panel back
// and folds another), and how wide each may be dragged. The chat keeps
// MIN_CHAT, so its text column stays readable (560 px and more).

/** The chat's narrowest width: a 560 px text column, the transcript's padding (2 × 24) and a scroll bar. */
export const MIN_CHAT = 620;
/** A collapsed or folded panel's rail. */
export const RAIL = 34;
export const MIN_PANEL = 200;
const SAVE_AFTER_MS = 300;

export interface PanelSpec {
  id: string;
  /** The user opened it (it may still be folded for lack of room). */
  open: boolean;
  width: number;
  /** When it was last opened or brought forward: the latest wins the room. */
  openedAt: number;
}

export interface PanelPlace {
  /** Expanded beside the chat, or over it when even alone it leaves the chat too little (overlay). */
  shown: boolean;
  /** Open but folded to its rail for lack of room. */
  folded: boolean;
  overlay: boolean;
  width: number;
  /** How wide a drag may make it while the others stay as they are. */
  maxWidth: number;
}

/**
 * Places panels in a window windowWidth wide: the most recently opened
 * first, each shown only if it fits beside those already shown with the
 * chat at MIN_CHAT; the first always shows, narrowed to the room left, and
 * over the chat when that room is under MIN_PANEL.
 */
export function layoutPanels(windowWidth: number, panels: readonly PanelSpec[]): Record<string, PanelPlace> {
  const out: Record<string, PanelPlace> = {};
  const order = panels.filter((p) => p.open).sort((a, b) => b.openedAt - a.openedAt);
  const shown: PanelSpec[] = [];
  const room = (nShown: number) => windowWidth - MIN_CHAT - RAIL * (panels.length - nShown);
  for (const p of order) {
    const used = shown.reduce((s, q) => s + q.width, 0);
    if (shown.length === 0 || used + p.width <= room(shown.length + 1)) shown.push(p);
  }
  const widths = new Map<string, number>();
  if (shown.length > 0) {
    const first = shown[0];
    const left = room(shown.length) - shown.slice(1).reduce((s, q) => s + q.width, 0);
    widths.set(first.id, Math.max(MIN_PANEL, Math.min(first.width, left)));
    for (const q of shown.slice(1)) widths.set(q.id, q.width);
  }
  const total = [...widths.values()].reduce((s, w) => s + w, 0);
  for (const p of panels) {
    const w = widths.get(p.id);
    if (w === undefined) {
      out[p.id] = { shown: false, folded: p.open, overlay: false, width: p.width, maxWidth: p.width };
      continue;
    }
    const overlay = shown.length === 1 && room(1) < MIN_PANEL;
    const maxWidth = Math.max(MIN_PANEL, room(shown.length) - (total - w));
    out[p.id] = { shown: true, folded: false, overlay, width: overlay ? Math.min(w, windowWidth - 2 * RAIL) : w, maxWidth };
  }
  return out;
}

/** The window's inner width, kept up to date. */
export function useWindowWidth(): number {
  const [w, setW] = useState(() => window.innerWidth);
  useEffect(() => {
    const on = () => setW(window.innerWidth);
    window.addEventListener("resize", on);
    return () => window.removeEventListener("resize", on);
  }, []);
  return w;
}

/**
 * The side panels' state: open or not, and each one's width (what was
 * dragged this run, else the saved width, else its default). A drag's end
 * saves the width (save), so it survives a restart.
 */
export function usePanels(defaults: Record<string, number>, saved: Record<string, number> | undefined, save?: (id: string, w: number) => void) {
  const [open, setOpenMap] = useState<Record<string, number>>({}); // id → openedAt, 0: closed
  const [dragged, setDragged] = useState<Record<string, number>>({});
  const tick = useRef(0);
  const setOpen = useCallback((id: string, o: boolean) => setOpenMap((m) => ({ ...m, [id]: o ? ++tick.current : 0 })), []);
  const setWidth = useCallback((id: string, w: number) => setDragged((m) => (m[id] === w ? m : { ...m, [id]: w })), []);
  // Arrow keys commit on every press: save once they pause.
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const commitWidth = useCallback((id: string, w: number) => {
    clearTimeout(timers.current.get(id));
    timers.current.set(id, setTimeout(() => save?.(id, Math.round(w)), SAVE_AFTER_MS));
  }, [save]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  const specs: PanelSpec[] = Object.keys(defaults).map((id) => ({
    id, open: (open[id] ?? 0) > 0, openedAt: open[id] ?? 0, width: dragged[id] ?? saved?.[id] ?? defaults[id],
  }));
  return { specs, setOpen, setWidth, commitWidth };
}

/**
 * usePanels placed in this window: the props each SidePanel takes (open,
 * folded or over the chat, its width and how far a drag may take it).
 */
export function useSidePanels(defaults: Record<string, number>, saved: Record<string, number> | undefined, save?: (id: string, w: number) => void) {
  const panels = usePanels(defaults, saved, save);
  const place = layoutPanels(useWindowWidth(), panels.specs);
  const { setOpen, setWidth, commitWidth } = panels;
  const props = (id: string) => {
    const spec = panels.specs.find((p) => p.id === id);
    const at = place[id];
    if (!spec || !at) return {};
    return {
      open: spec.open, onOpenChange: (o: boolean) => setOpen(id, o), width: at.width, maxWidth: at.maxWidth, folded: at.folded, overlay: at.overlay,
      onWidthChange: (w: number) => setWidth(id, w), onWidthCommit: (w: number) => commitWidth(id, w),
    };
  };
  return { props, setOpen };
}
