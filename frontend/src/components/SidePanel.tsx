import { useState } from "react";

const clampWidth = (w: number) => Math.round(Math.max(180, Math.min(w, Math.max(240, window.innerWidth - 420))));

// A side panel that collapses to a thin rail and, open, resizes by dragging
// (or arrow keys on) its inner edge; the chat never collapses. Open state is
// the panel's own unless the host passes open/onOpenChange.
export function SidePanel(props: {
  side: "left" | "right";
  title: string;
  emptyText: string;
  children?: React.ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  width?: number;
}) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = props.open ?? ownOpen;
  const setOpen = props.onOpenChange ?? setOwnOpen;
  const [width, setWidth] = useState(props.width ?? 260);
  const dir = props.side === "left" ? 1 : -1;
  const id = `panel-${props.title.toLowerCase()}`;
  const drag = (e: React.PointerEvent) => {
    e.preventDefault();
    const x0 = e.clientX, w0 = width;
    const move = (m: PointerEvent) => setWidth(clampWidth(w0 + dir * (m.clientX - x0)));
    const up = () => (window.removeEventListener("pointermove", move), window.removeEventListener("pointerup", up));
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  };
  const key = (e: React.KeyboardEvent) => {
    const d = e.key === "ArrowRight" ? 16 : e.key === "ArrowLeft" ? -16 : 0;
    if (d) setWidth((w) => clampWidth(w + dir * d));
  };
  return (
    <aside className={`side side-${props.side} ${open ? "open" : "collapsed"}`} aria-label={props.title} style={open ? { width } : undefined}>
      <button
        className="side-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
        title={open ? `Hide ${props.title.toLowerCase()}` : `Show ${props.title.toLowerCase()}`}
      >
        <span className="side-title">{props.title}</span>
      </button>
      <div id={id} className="side-content" hidden={!open}>
        {props.children ?? <p className="empty">{props.emptyText}</p>}
      </div>
      {open && (
        <div className="side-resize" role="separator" aria-orientation="vertical" aria-label={`Resize ${props.title.toLowerCase()}`}
          aria-valuenow={width} tabIndex={0} onPointerDown={drag} onKeyDown={key} />
      )}
    </aside>
  );
}
