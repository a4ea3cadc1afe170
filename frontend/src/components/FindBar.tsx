import { useEffect, useRef } from "react";

/** The find bar above the transcript: the query, "n of m", previous / next, close. */
export function FindBar({ query, onQuery, current, total, onStep, onClose }: {
  query: string;
  onQuery: (q: string) => void;
  /** The current match, from 0; -1 when none. */
  current: number;
  total: number;
  onStep: (delta: 1 | -1) => void;
  onClose: () => void;
}) {
  const box = useRef<HTMLInputElement>(null);
  useEffect(() => {
    box.current?.focus();
    box.current?.select();
  }, []);
  const status = !query.trim() ? "" : total === 0 ? "No matches" : `${current + 1} of ${total}`;
  return (
    <div className="find-bar" role="search" aria-label="Find in conversation">
      <input
        ref={box}
        type="search"
        aria-label="Find in conversation"
        placeholder="Find in conversation"
        value={query}
        onChange={(e) => onQuery(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            onStep(e.shiftKey ? -1 : 1);
          } else if (e.key === "Escape") {
            e.preventDefault();
            e.stopPropagation();
            onClose();
          }
        }}
      />
      <span className="find-status" role="status" aria-live="polite">{status}</span>
      <button type="button" onClick={() => onStep(-1)} disabled={total === 0} aria-label="Previous match" title="Previous match (Shift+Enter)">↑</button>
      <button type="button" onClick={() => onStep(1)} disabled={total === 0} aria-label="Next match" title="Next match (Enter)">↓</button>
      <button type="button" onClick={onClose} aria-label="Close find" title="Close (Esc)">✕</button>
    </div>
  );
}
