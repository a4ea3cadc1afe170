import type { TranscriptItem } from "../bridge";
import { costOf, formatCost, shortTokens, sessionUsage, type ModelPrice } from "./cost";

/** The session's tokens and, when the model's price is known, what they cost: in the header. */
export function SessionCost({ items, children, price }: {
  items: readonly TranscriptItem[];
  /** The subagents' transcripts: their tokens count toward the session's. */
  children?: Readonly<Record<string, { items: readonly TranscriptItem[] | null }>>;
  price?: ModelPrice;
}) {
  const u = sessionUsage(items, children);
  if (!u.totalTokens) return null;
  const cost = formatCost(costOf(u, price), price);
  const n = (x: number) => x.toLocaleString("en-US");
  const detail = `This session: ${n(u.promptTokens)} input and ${n(u.completionTokens)} output tokens` +
    (cost ? `, ${cost}${price?.source === "builtin" ? " at list price" : ""}` : "; set a price in Settings to see the cost");
  return (
    <span className="session-cost" role="status" aria-label={detail} title={detail}>
      {shortTokens(u.totalTokens)} tokens{cost && ` · ${cost}`}
    </span>
  );
}
