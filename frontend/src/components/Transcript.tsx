import { memo, useCallback, useEffect, useLayoutEffect, useRef } from "react";
import { useFindHighlight } from "./useFindHighlight";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { TranscriptItem } from "../bridge";
import { Markdown } from "./Markdown";
import { ToolCard } from "./ToolCard";
import { TurnMarker } from "./TurnMarker";
import { CopyButton } from "./CopyButton";
import { useChatActions } from "./ChatActions";

type Row = { key: string; item?: TranscriptItem; queued?: string };

const UserMessage = ({ text, queued, last }: { text: string; queued?: boolean; last?: boolean }) => {
  const { editLast } = useChatActions();
  return (
    <div className={`msg msg-user${queued ? " msg-queued" : ""}`} role="article" aria-label={queued ? "Your message, queued" : "Your message"}>
      <div className="msg-who">
        you{queued && <span className="badge">queued</span>}
        <CopyButton text={text} label="Copy message" className="msg-copy" />
        {last && editLast && (
          <button type="button" className="copy-button msg-edit" onClick={editLast} title="Put this message in the composer to change and send again">
            Edit
          </button>
        )}
      </div>
      <div className="msg-text">{text}</div>
    </div>
  );
};

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
      {!item.streaming && <CopyButton text={item.text ?? ""} label="Copy reply" className="msg-copy" />}
    </div>
    <Markdown text={item.text ?? ""} />
    {item.streaming && <span className="cursor" aria-hidden />}
  </div>
);

/** One row; last marks the last turn's message and end, which offer Edit and Retry. */
const RowView = memo(function RowView({ row, last, reveal }: { row: Row; last: boolean; reveal: boolean }) {
  if (row.queued !== undefined) return <UserMessage text={row.queued} queued />;
  const it = row.item!;
  switch (it.kind) {
    case "user":
      return <UserMessage text={it.text ?? ""} last={last} />;
    case "assistant":
      // A model call that failed before any text leaves an empty message; the turn marker says why.
      if (!it.text && !it.streaming && !it.cancelled) return null;
      return <AssistantMessage item={it} />;
    case "tool":
      return <ToolCard item={it} reveal={reveal} />;
    case "stop":
      return <TurnMarker item={it} last={last} />;
  }
});

/** The index of the last item of kind, or -1. */
export function lastOfKind(items: readonly TranscriptItem[], kind: TranscriptItem["kind"]): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i].kind === kind) return i;
  return -1;
}

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
export function Transcript(props: {
  items: readonly TranscriptItem[]; queued: readonly string[]; empty: React.ReactNode;
  /** Find: the query, the matching item shown (index), and whether its match is in a folded tool card's body. */
  find?: { query: string; index: number; inBody: boolean };
}) {
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
  const lastUser = lastOfKind(props.items, "user");
  const lastStop = lastOfKind(props.items, "stop");

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

  // Find: bring the current match's row into view (no longer following the end) and highlight.
  const findIndex = props.find?.index ?? -1;
  useEffect(() => {
    if (findIndex < 0 || findIndex >= rows.length) return;
    atBottom.current = false;
    v.scrollToIndex(findIndex, { align: "center" });
  }, [findIndex]); // eslint-disable-line react-hooks/exhaustive-deps
  useFindHighlight(scroller, props.find?.query ?? "", findIndex);

  return (
    <div ref={scroller} className="transcript" role="log" aria-live="polite" aria-label="Conversation"
      onScroll={onScroll} onWheel={userScrolls} onTouchMove={userScrolls} onPointerDown={userScrolls} onKeyDown={userScrolls}>
      {rows.length === 0 ? (
        props.empty
      ) : (
        <div className="rows" style={{ height: total }}>
          {v.getVirtualItems().map((vi) => (
            <div key={vi.key} data-index={vi.index} ref={v.measureElement} className="row" style={{ transform: `translateY(${vi.start}px)` }}>
              <RowView row={rows[vi.index]} last={vi.index === lastUser || (vi.index === lastStop && lastStop > lastUser)}
                reveal={vi.index === findIndex && !!props.find?.inBody} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
