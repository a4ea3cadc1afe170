import { memo, useCallback, useLayoutEffect, useRef } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { TranscriptItem } from "../bridge";
import { Markdown } from "./Markdown";
import { ToolCard } from "./ToolCard";
import { TurnMarker } from "./TurnMarker";
import { UndoMarker } from "./UndoMarker";

type Row = { key: string; item?: TranscriptItem; queued?: string };

const UserMessage = ({ text, queued }: { text: string; queued?: boolean }) => (
  <div className={`msg msg-user${queued ? " msg-queued" : ""}`} role="article" aria-label={queued ? "Your message, queued" : "Your message"}>
    <div className="msg-who">
      you{queued && <span className="badge">queued</span>}
    </div>
    <div className="msg-text">{text}</div>
  </div>
);

const AssistantMessage = ({ item }: { item: TranscriptItem }) => (
  <div
    className={`msg msg-assistant${item.cancelled ? " msg-cancelled" : ""}`}
    role="article"
    aria-label={item.cancelled ? "Reply, cancelled" : item.streaming ? "Reply, streaming" : "Reply"}
    aria-busy={item.streaming ? true : undefined}
  >
    <div className="msg-who">
      assistant
      {item.cancelled && <span className="badge badge-cancelled">cancelled</span>}
    </div>
    <Markdown text={item.text ?? ""} />
    {item.streaming && <span className="cursor" aria-hidden />}
  </div>
);

const RowView = memo(function RowView({ row }: { row: Row }) {
  if (row.queued !== undefined) return <UserMessage text={row.queued} queued />;
  const it = row.item!;
  switch (it.kind) {
    case "user":
      return <UserMessage text={it.text ?? ""} />;
    case "assistant":
      // A model call that failed before any text leaves an empty message; the turn marker says why.
      if (!it.text && !it.streaming && !it.cancelled) return null;
      return <AssistantMessage item={it} />;
    case "tool":
      return <ToolCard item={it} />;
    case "stop":
      return <TurnMarker item={it} />;
    case "undo":
      return <UndoMarker item={it} />;
  }
});

const rowsCache = new WeakMap<TranscriptItem, Row>();
function rowOf(it: TranscriptItem, i: number): Row {
  let r = rowsCache.get(it);
  if (!r) rowsCache.set(it, (r = { key: `${it.kind}:${it.id ?? `${it.turnId}#${i}`}`, item: it }));
  return r;
}

/**
 * The conversation as a virtualised list: only the rows near the viewport
 * are in the DOM, each measured as it renders. It follows new output while
 * the user is at the bottom and stays put when they scroll up.
 */
export function Transcript(props: { items: readonly TranscriptItem[]; queued: readonly string[]; empty: React.ReactNode }) {
  const rows: Row[] = props.items.map(rowOf);
  props.queued.forEach((q, i) => rows.push({ key: `queued:${i}:${q}`, queued: q }));
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 72,
    overscan: 8,
    getItemKey: (i) => rows[i].key,
  });
  const total = v.getTotalSize();
  const last = rows[rows.length - 1];

  // Only the user's own scrolling (wheel, touch, keys, the scrollbar) stops
  // the following; scrolls from re-measured rows never do.
  const userUntil = useRef(0);
  const userScrolls = useCallback(() => {
    userUntil.current = Date.now() + 400;
  }, []);
  const onScroll = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    const near = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
    if (near) atBottom.current = true;
    else if (Date.now() < userUntil.current) atBottom.current = false;
  }, []);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (el && atBottom.current && rows.length) el.scrollTop = el.scrollHeight;
  }, [total, rows.length, last]);

  return (
    <div ref={scroller} className="transcript" role="log" aria-live="polite" aria-label="Conversation"
      onScroll={onScroll} onWheel={userScrolls} onTouchMove={userScrolls} onPointerDown={userScrolls} onKeyDown={userScrolls}>
      {rows.length === 0 ? (
        props.empty
      ) : (
        <div className="rows" style={{ height: total }}>
          {v.getVirtualItems().map((vi) => (
            <div key={vi.key} data-index={vi.index} ref={v.measureElement} className="row" style={{ transform: `translateY(${vi.start}px)` }}>
              <RowView row={rows[vi.index]} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
