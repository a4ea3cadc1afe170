import { memo, useState } from "react";
import type { TranscriptItem } from "../bridge";
import { useChatActions } from "./ChatActions";
import { Markdown } from "./Markdown";
import "./Compaction.css";

const n = (x: number) => x.toLocaleString("en-US");

/**
 * Where older turns were replaced by a checkpoint summary in what the model
 * is sent (the transcript above keeps them). Opens to show the summary; the
 * last compaction can be undone until the next turn starts.
 */
export const CompactionMarker = memo(function CompactionMarker({ item, undoable }: { item: TranscriptItem; undoable: boolean }) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { undoCompact } = useChatActions();
  const c = item.compaction;
  const undone = c?.undone ?? false;
  const replaced = c?.replaced ?? 0;
  const how = c?.manual ? "you compacted the conversation" : "the context filled up, so the conversation was compacted";
  const sizes = c && item.context ? ` (about ${n(c.tokensBefore)} → ${n(item.context.tokens)} tokens)` : "";
  const summaryId = `compaction-summary-${item.id}`;
  const undo = () => {
    setError(null);
    undoCompact?.().catch((e) => setError(String(e instanceof Error ? e.message : e)));
  };
  return (
    <div className={`compaction-marker${undone ? " compaction-undone" : ""}`} role="note" aria-label={undone ? "Compaction, undone" : "Compaction"}>
      <div className="turn-line">
        <span>
          {undone
            ? "compaction undone: the model is sent the whole conversation again"
            : `compacted: ${how}; ${replaced} earlier message${replaced === 1 ? " is" : "s are"} sent as a summary${sizes}`}
        </span>
      </div>
      <div className="compaction-actions">
        <button type="button" className="link-button" aria-expanded={open} aria-controls={summaryId} onClick={() => setOpen(!open)}>
          {open ? "Hide the summary" : "Show the summary"}
        </button>
        {undoable && !undone && undoCompact && (
          <button type="button" className="link-button" onClick={undo} title="Send the whole conversation again from the next turn">
            Undo compaction
          </button>
        )}
      </div>
      {error && (
        <p className="compaction-error" role="alert">
          {error}
        </p>
      )}
      {open && (
        <div id={summaryId} className="compaction-summary" role="region" aria-label="Checkpoint summary">
          <Markdown text={item.text ?? ""} />
        </div>
      )}
    </div>
  );
});
