import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useRef } from "react";
import { useFindHighlight } from "./useFindHighlight";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { ImageRef, TranscriptItem } from "../bridge";
import { ImageThumbs } from "./Attachments";
import { prerenderMarkdown } from "../rich";
import { Markdown } from "./Markdown";
import { ToolCard } from "./ToolCard";
import { TurnMarker } from "./TurnMarker";
import { PlanCard } from "./PlanCard";
import { QuestionCard, questionOf } from "./QuestionCard";
import { CopyButton } from "./CopyButton";
import { SkillCard } from "./SkillCard";
import { toolSkill, userSkill } from "./skillCard";
import { useChatActions } from "./ChatActions";
import { CompactionMarker } from "./CompactionMarker";
import { UndoMarker } from "./UndoMarker";
import { McpWaitingMarker } from "./McpWaitingMarker";
import { isTeamWake, TeamMessageItem, TeamWake } from "./team/TeamMessageCard";

export type Row = { key: string; item?: TranscriptItem; queued?: string; notice?: string };

const Notice = ({ text }: { text: string }) => (
  <div className="notice" role="note" aria-label="Notice">
    <span aria-hidden>⚠ </span>
    {text}
  </div>
);

const UserMessage = ({ text, queued, last, images, turnId }: { text: string; queued?: boolean; last?: boolean; images?: readonly ImageRef[]; turnId?: string }) => {
  const { editLast, reviewTurn, undo } = useChatActions();
  // The turn's header: a turn that changed files can be reviewed by the model.
  const reviewable = !!(turnId && reviewTurn && undo?.units.has(turnId));
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
        {reviewable && (
          <button type="button" className="copy-button msg-review" onClick={() => reviewTurn!(turnId!)}
            title="Have the reviewer review the changes this turn made, with its findings on their hunks">
            Review…
          </button>
        )}
      </div>
      <ImageThumbs images={images} />
      {text && <div className="msg-text">{text}</div>}
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

/** One row; last marks the last turn's message and end, which offer Edit and Retry. The exported page draws its rows with it too. */
export const RowView = memo(function RowView({ row, last, reveal, undoable }: { row: Row; last: boolean; reveal: boolean; undoable: boolean }) {
  if (row.notice !== undefined) return <Notice text={row.notice} />;
  if (row.queued !== undefined) return <UserMessage text={row.queued} queued />;
  const it = row.item!;
  switch (it.kind) {
    case "user": {
      if (isTeamWake(it)) return <TeamWake item={it} />;
      // A /name skill shows as its card, not pasted into the bubble.
      const sk = userSkill(it.text ?? "");
      if (sk) {
        return (
          <>
            <SkillCard load={sk.load} by="you" reveal={reveal} />
            <UserMessage text={sk.text} last={last} images={it.images} turnId={it.turnId} />
          </>
        );
      }
      return <UserMessage text={it.text ?? ""} last={last} images={it.images} turnId={it.turnId} />;
    }
    case "assistant":
      // A model call that failed before any text leaves an empty message; the turn marker says why.
      if (!it.text && !it.streaming && !it.cancelled) return null;
      return <AssistantMessage item={it} />;
    case "tool":
      if (questionOf(it)) {
        return (
          <>
            <ToolCard item={it} reveal={reveal} />
            {it.images?.length ? <ImageThumbs images={it.images} /> : null}
            <QuestionCard item={it} />
          </>
        );
      }
      if (toolSkill(it)) {
        return (
          <>
            <ToolCard item={it} reveal={reveal} />
            <SkillCard load={toolSkill(it)!} by="model" reveal={reveal} />
          </>
        );
      }
      return it.images?.length ? (
        <>
          <ToolCard item={it} reveal={reveal} />
          <ImageThumbs images={it.images} />
        </>
      ) : (
        <ToolCard item={it} reveal={reveal} />
      );
    case "stop":
      if (it.plan) {
        return (
          <>
            <PlanCard plan={it.plan} waiting={last} />
            <TurnMarker item={it} last={last} />
          </>
        );
      }
      return <TurnMarker item={it} last={last} />;
    case "compaction":
      return <CompactionMarker item={it} undoable={undoable} />;
    case "undo":
      return <UndoMarker item={it} />;
    case "mcp_waiting":
      return <McpWaitingMarker item={it} />;
    case "team_message":
      return <TeamMessageItem item={it} />;
  }
});

/** The index of the last item of kind, or -1. */
export function lastOfKind(items: readonly TranscriptItem[], kind: TranscriptItem["kind"]): number {
  for (let i = items.length - 1; i >= 0; i--) if (items[i].kind === kind) return i;
  return -1;
}

/**
 * A row's height before it is measured, near what it will be (a wrong guess
 * moves the rows below when it is measured): a folded card or a marker is
 * one line, a message grows with its lines.
 */
function estimate(row: Row): number {
  let h = estimates.get(row);
  if (h === undefined) estimates.set(row, (h = guess(row)));
  return h;
}
const estimates = new WeakMap<Row, number>();

function guess(row: Row): number {
  const it = row.item;
  if (!it) return 44;
  switch (it.kind) {
    case "tool":
      return 44;
    case "stop":
    case "compaction":
    case "undo":
    case "mcp_waiting":
      return 30;
    default: {
      const text = it.text ?? "";
      let lines = 1 + Math.floor(text.length / 100);
      for (let i = text.indexOf("\n"); i >= 0 && lines < 400; i = text.indexOf("\n", i + 1)) lines++;
      return (it.kind === "user" ? 57 : 44) + 16 * lines;
    }
  }
}

const rowsCache = new WeakMap<TranscriptItem, Row>();
function rowOf(it: TranscriptItem, i: number): Row {
  let r = rowsCache.get(it);
  if (!r) rowsCache.set(it, (r = { key: `${it.kind}:${it.id ?? `${it.turnId}#${i}`}`, item: it }));
  return r;
}

/**
 * The id of the compaction that can still be undone: the last one, with no
 * turn started after it, and, when it was made during a turn, once that
 * turn has stopped.
 */
function undoableCompaction(items: readonly TranscriptItem[]): string | undefined {
  let stopped = false;
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if (it.kind === "user") return undefined;
    if (it.kind === "stop") stopped = true;
    if (it.kind === "compaction") return it.compaction?.undone || (it.turnId !== "" && !stopped) ? undefined : it.id;
  }
  return undefined;
}

/**
 * The conversation as a virtualised list: only the rows near the viewport
 * are in the DOM, each measured as it renders. It follows new output while
 * the user is at the bottom and stays put when they scroll up.
 */
export function Transcript(props: {
  items: readonly TranscriptItem[];
  queued: readonly string[];
  empty: React.ReactNode;
  /** A notice from the window, above the conversation (the mode it started in). */
  notice?: string;
  /** Find: the query, the matching item shown (index), and whether its match is in a folded tool card's body. */
  find?: { query: string; index: number; inBody: boolean };
}) {
  // Rebuilt when the conversation changes, not on every scroll frame.
  const rows = useMemo(() => {
    const rows: Row[] = props.items.map(rowOf);
    if (props.notice) rows.unshift({ key: "notice", notice: props.notice });
    props.queued.forEach((q, i) => rows.push({ key: `queued:${i}:${q}`, queued: q }));
    return rows;
  }, [props.items, props.notice, props.queued]);
  const undoable = useMemo(() => undoableCompaction(props.items), [props.items]);
  // The replies' Markdown, made in idle time from the end up, so scrolling back meets it made.
  useEffect(() => {
    const texts: string[] = [];
    for (let i = props.items.length - 1; i >= 0; i--) {
      const it = props.items[i];
      if (it.kind === "assistant" && it.text && !it.streaming) texts.push(it.text);
    }
    return prerenderMarkdown(texts);
  }, [props.items]);
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => estimate(rows[i]),
    overscan: 8,
    getItemKey: (i) => rows[i].key,
  });
  const total = v.getTotalSize();
  const last = rows[rows.length - 1];
  // Row indices: the items' own, after the notice row when there is one.
  const offset = props.notice ? 1 : 0;
  const rowOfLast = (kind: TranscriptItem["kind"]) => {
    const i = lastOfKind(props.items, kind);
    return i < 0 ? -1 : i + offset;
  };
  const lastUser = rowOfLast("user");
  const lastStop = rowOfLast("stop");

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
  const findIndex = props.find ? props.find.index + offset : -1;
  useEffect(() => {
    if (findIndex < 0 || findIndex >= rows.length) return;
    atBottom.current = false;
    v.scrollToIndex(findIndex, { align: "center" });
  }, [findIndex]); // eslint-disable-line react-hooks/exhaustive-deps
  useFindHighlight(scroller, props.find?.query ?? "", findIndex, (dy) => v.scrollBy(dy));

  return (
    <div ref={scroller} className="transcript" role="log" aria-live="polite" aria-label="Conversation"
      onScroll={onScroll} onWheel={userScrolls} onTouchMove={userScrolls} onPointerDown={userScrolls} onKeyDown={userScrolls}>
      {rows.length === (props.notice ? 1 : 0) ? (
        <>
          {props.notice && <Notice text={props.notice} />}
          {props.empty}
        </>
      ) : (
        <div className="rows" style={{ height: total }}>
          {v.getVirtualItems().map((vi) => (
            <div key={vi.key} data-index={vi.index} ref={v.measureElement} className="row" style={{ transform: `translateY(${vi.start}px)` }}>
              <RowView row={rows[vi.index]} last={vi.index === lastUser || (vi.index === lastStop && lastStop > lastUser)}
                reveal={vi.index === findIndex && !!props.find?.inBody}
                undoable={undoable !== undefined && rows[vi.index].item?.id === undoable} />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
