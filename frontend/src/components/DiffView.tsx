import { memo, useMemo, useRef, type KeyboardEvent, type ReactNode } from "react";
import { useVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import { highlight, languageFor, useRich } from "../rich";
import type { Diagnostic } from "../bridge";
import { parseDiff, type DiffLine, type InlineRow, type SplitRow } from "./diffRows";
import { DiffMark } from "./DiffMark";
import "./DiffView.css";

export type DiffLayout = "inline" | "split";

export interface DiffViewProps {
  /** Unified diff text: one or more files, or a bare "@@" chunk. */
  diff: string;
  /** The file shown above the diff and in its accessible name. */
  label?: string;
  /** The file named in the accessible name when no label is drawn (the caller shows the path). */
  name?: string;
  /** inline (default) or side by side. */
  layout?: DiffLayout;
  /** A path or language name for the highlighter; default: label, else the diff's file. */
  language?: string;
  /** Drawn at the start of each "@@" row (block counts the chunks from 0): the dialog's hunk checkboxes. */
  hunkControl?: (block: number, header: string) => ReactNode;
  /** Fill the parent's height (the parent sets it) instead of a capped box. */
  fill?: boolean;
  /** Problems by line of the new side: each such line gets a mark in a gutter (the dialog's diagnostics). */
  marks?: Marks;
}

export type Marks = ReadonlyMap<number, readonly Diagnostic[]>;

/** The old side's gutter in side by side: the slot, never a mark. */
const noMarks: Marks = new Map();

/** Diffs longer than this draw only the rows near the viewport. */
export const VIRTUAL_ROWS = 200;
const ROW_PX = 20;

const signs = { add: "+", del: "−", ctx: " " } as const;
const words = { add: "added", del: "removed", ctx: "" } as const;

function Code({ line, lang }: { line: DiffLine; lang: string }) {
  const html = useMemo(() => highlight(line.text, lang), [line.text, lang]);
  return <code className="diff-code hljs" dangerouslySetInnerHTML={{ __html: html || " " }} />;
}

/** One side of a line: number, +/−/space marker (words for screen readers), code. */
function Half({ line, lang, both, marks }: { line?: DiffLine; lang: string; both?: boolean; marks?: Marks }) {
  if (!line) return <div className="diff-half diff-empty" />;
  const k = line.kind;
  const diags = marks && k !== "del" && line.new ? marks.get(line.new) : undefined;
  return (
    <div className={`diff-half diff-${k}${diags ? " diff-has-diag" : ""}`}>
      {marks && <span className="diff-diag-slot">{diags && <DiffMark line={line.new!} diags={diags} />}</span>}
      {both && <span className="diff-ln diff-ln-old" aria-hidden>{line.old ?? ""}</span>}
      <span className={`diff-ln ${both || k === "add" ? "diff-ln-new" : "diff-ln-old"}`} aria-hidden>{both ? (line.new ?? "") : (k === "add" ? line.new : line.old)}</span>
      <span className="diff-mark" aria-hidden>{signs[k]}</span>
      {words[k] && <span className="visually-hidden">{words[k]}: </span>}
      <Code line={line} lang={lang} />
    </div>
  );
}

function Row({ row, lang, hunkControl, marks }: {
  row: InlineRow | SplitRow; lang: string; hunkControl?: DiffViewProps["hunkControl"]; marks?: Marks;
}) {
  switch (row.type) {
    case "file":
      return <div className="diff-row diff-file mono">{row.name}</div>;
    case "hunk":
      return (
        <div className="diff-row diff-hunk">
          {hunkControl?.(row.block, row.header)}
          <span className="diff-hunk-header">{row.header}</span>
        </div>
      );
    case "line":
      return <div className="diff-row"><Half line={row.line} lang={lang} both marks={marks} /></div>;
    case "pair":
      return (
        <div className="diff-row diff-pair">
          <Half line={row.left} lang={lang} marks={marks && noMarks} />
          <Half line={row.right} lang={lang} marks={marks} />
        </div>
      );
  }
}

function AllRows(props: { rows: readonly (InlineRow | SplitRow)[]; lang: string; hunkControl?: DiffViewProps["hunkControl"]; marks?: Marks }) {
  return <>{props.rows.map((r, i) => <Row key={i} row={r} lang={props.lang} hunkControl={props.hunkControl} marks={props.marks} />)}</>;
}

function VirtualRows(props: {
  rows: readonly (InlineRow | SplitRow)[]; lang: string; hunkControl?: DiffViewProps["hunkControl"]; marks?: Marks;
  v: Virtualizer<HTMLDivElement, Element>;
}) {
  const { v } = props;
  return (
    <div className="diff-virtual" style={{ height: v.getTotalSize() }}>
      {v.getVirtualItems().map((it) => (
        <div key={it.key} data-index={it.index} ref={v.measureElement} className="diff-virtual-row" style={{ transform: `translateY(${it.start}px)` }}>
          <Row row={props.rows[it.index]} lang={props.lang} hunkControl={props.hunkControl} marks={props.marks} />
        </div>
      ))}
    </div>
  );
}

const scrollKeys: Record<string, (el: HTMLElement) => number> = {
  ArrowDown: (el) => el.scrollTop + ROW_PX,
  ArrowUp: (el) => el.scrollTop - ROW_PX,
  PageDown: (el) => el.scrollTop + Math.max(ROW_PX, el.clientHeight - ROW_PX),
  PageUp: (el) => el.scrollTop - Math.max(ROW_PX, el.clientHeight - ROW_PX),
  Home: () => 0,
  End: (el) => el.scrollHeight,
};

/**
 * The scroller's keys, wherever focus is inside it (a hunk checkbox too):
 * they scroll the diff, and focus moves to the scroller itself, so a
 * virtualised row that leaves the DOM never takes focus away with it. A
 * diff that fits leaves the keys to the page around it.
 */
export function scrollByKey(e: KeyboardEvent<HTMLDivElement>) {
  const to = scrollKeys[e.key];
  if (!to || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const el = e.currentTarget;
  if (el.scrollHeight <= el.clientHeight) return; // nothing to scroll: the keys go on to the page
  e.preventDefault();
  el.scrollTop = Math.max(0, Math.min(to(el), el.scrollHeight - el.clientHeight));
  if (e.target !== el) el.focus({ preventScroll: true });
}

/**
 * The app's one diff view: unified diff text parsed by diff2html, drawn
 * inline or side by side with line numbers, +/− markers and background
 * tints (never colour alone), each line highlighted by the app's one
 * highlighter. Long diffs draw only the rows near the viewport, so a
 * 5,000-line change opens as fast as a short one.
 */
export const DiffView = memo(function DiffView({ diff, label, name, layout = "inline", language, hunkControl, fill, marks }: DiffViewProps) {
  const parsed = useMemo(() => parseDiff(diff), [diff]);
  // The language is "" until the highlighter is in; lines re-highlight when it changes.
  useRich();
  const split = layout === "split";
  const rows = split ? parsed.split() : parsed.inline;
  const lang = languageFor(language ?? label ?? parsed.files[0]);
  const scroller = useRef<HTMLDivElement>(null);
  const virtual = rows.length > VIRTUAL_ROWS;
  // Here rather than in VirtualRows: the scroller's ref is set before this
  // component's effects run, not before its children's.
  const v = useVirtualizer({
    count: rows.length,
    enabled: virtual,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_PX,
    overscan: 30,
  });
  const body = { rows, lang, hunkControl, marks };
  return (
    <div className={`diff diff-${layout}${fill ? " diff-fill" : ""}`}>
      {label && <div className="diff-label mono">{label}</div>}
      <div className="diff-scroll mono" ref={scroller} tabIndex={0} role="group" aria-label={label || name ? `Diff of ${label || name}` : "Diff"} onKeyDown={scrollByKey}>
        {virtual ? <VirtualRows {...body} v={v} /> : <AllRows {...body} />}
        {rows.length === 0 && <div className="diff-none">No changes to show.</div>}
      </div>
    </div>
  );
});
