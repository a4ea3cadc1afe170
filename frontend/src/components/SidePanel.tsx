import { useState } from "react";

// A side panel that collapses to a thin rail; the chat never collapses.
export function SidePanel(props: { side: "left" | "right"; title: string; emptyText: string; children?: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = `panel-${props.title.toLowerCase()}`;
  return (
    <aside className={`side side-${props.side} ${open ? "open" : "collapsed"}`} aria-label={props.title}>
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
    </aside>
  );
}
