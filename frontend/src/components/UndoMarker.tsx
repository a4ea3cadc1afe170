import { memo } from "react";
import type { TranscriptItem } from "../bridge";
import { undoWords, unitLabel } from "../undo/selection";
import { useChatActions } from "./ChatActions";

/** An undo the user made, in the transcript: what it restored and left, and a way to undo it. */
export const UndoMarker = memo(function UndoMarker({ item }: { item: TranscriptItem }) {
  const { undo } = useChatActions();
  const u = item.undo;
  if (!u) return null;
  const canUndo = !!(undo && u.restored?.length && undo.units.has(u.unit));
  return (
    <div className="turn-marker undo-marker" role="note" aria-label={`Undo ${unitLabel(u.unit).replace(/^undo /, "")}`}>
      <div className="turn-line">
        <span>↶ {undoWords(u, unitLabel)}</span>
        {canUndo && (
          <span className="turn-undo">
            <button className="link-button" onClick={() => undo!.open(u.unit, "undo")}>Undo this undo…</button>
          </span>
        )}
      </div>
    </div>
  );
});
