import { useRef, useState } from "react";
import { MIN_PANEL } from "./panels";

const KEY_STEP = 16;

// A side panel that collapses to a thin rail and, open, resizes by dragging
// (or arrow keys on) its inner edge; the chat never collapses. Open state
// and width are the panel's own unless the host passes them (App places the
// panels with layoutPanels: a panel without room folds to its rail, one
// alone without room floats over the chat). The rail's button is named by
// its visible title and says open or closed with aria-expanded: no tooltip
// to cover the panel's own text.
export function SidePanel(props: {
  side: "left" | "right";
  title: string;
  emptyText: string;
  children?: React.ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  width?: number;
  /** Live while dragging; onWidthCommit once the drag (or a key) ends. */
  onWidthChange?: (w: number) => void;
  onWidthCommit?: (w: number) => void;
  maxWidth?: number;
  /** Open, but folded to its rail for lack of room: clicking the rail brings it forward. */
  folded?: boolean;
  /** While set, a closed panel leaves its content out (App: until the first frame is drawn; the content mounts, hidden, right after). */
  later?: boolean;
  /** Alone and still without room beside the chat: it floats over it. */
  overlay?: boolean;
}) {
  const [ownOpen, setOwnOpen] = useState(false);
  const [ownWidth, setOwnWidth] = useState(props.width ?? 260);
  const open = (props.open ?? ownOpen) && !props.folded;
  const setOpen = props.onOpenChange ?? setOwnOpen;
  const width = props.onWidthChange ? (props.width ?? 260) : ownWidth;
  const setWidth = props.onWidthChange ?? setOwnWidth;
  const latest = useRef(width);
  latest.current = width;
  const clamp = (w: number) => Math.round(Math.max(MIN_PANEL, Math.min(w, props.maxWidth ?? Math.max(240, window.innerWidth - 420))));
  const dir = props.side === "left" ? 1 : -1;
  const id = `panel-${props.title.toLowerCase()}`;
  const drag = (e: React.PointerEvent) => {
    e.preventDefault();
    const x0 = e.clientX, w0 = width;
    const move = (m: PointerEvent) => setWidth(clamp(w0 + dir * (m.clientX - x0)));
    const up = () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      props.onWidthCommit?.(latest.current);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  };
  const key = (e: React.KeyboardEvent) => {
    const d = e.key === "ArrowRight" ? KEY_STEP : e.key === "ArrowLeft" ? -KEY_STEP : 0;
    if (!d) return;
    e.preventDefault();
    const w = clamp(width + dir * d);
    setWidth(w);
    props.onWidthCommit?.(w);
  };
  const state = open ? "open" : "collapsed";
  return (
    <aside className={`side side-${props.side} ${state}${props.folded ? " folded" : ""}${open && props.overlay ? " overlay" : ""}`}
      aria-label={props.title} style={open ? { width } : undefined}>
      <button className="side-toggle" aria-expanded={open} aria-controls={id} onClick={() => setOpen(props.folded ? true : !open)}>
        <span className="side-title">{props.title}</span>
        {props.folded && <span className="visually-hidden">, folded for room</span>}
        {open && <span className="side-chevron" aria-hidden>{props.side === "left" ? "‹" : "›"}</span>}
      </button>
      <div id={id} className="side-content" hidden={!open}>
        {open || !props.later ? (props.children ?? <p className="empty">{props.emptyText}</p>) : null}
      </div>
      {open && (
        <div className="side-resize" role="separator" aria-orientation="vertical" aria-label={`Resize ${props.title.toLowerCase()}`}
          aria-valuenow={width} aria-valuemin={MIN_PANEL} aria-valuemax={props.maxWidth} tabIndex={0} onPointerDown={drag} onKeyDown={key} />
      )}
    </aside>
  );
}
