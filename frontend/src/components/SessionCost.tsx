import type { TranscriptItem } from "../bridge";
import { formatCost, sessionCost, shortTokens, sessionUsage, type TurnPrices } from "./cost";

/** The session's tokens and, when every turn's model has a known price, what they cost (each turn at its own model's): in the header. */
export function SessionCost({ items, children, prices }: {
  items: readonly TranscriptItem[];
  /** The subagents' transcripts: their tokens count toward the session's. */
  children?: Readonly<Record<string, { items: readonly TranscriptItem[] | null }>>;
  prices?: TurnPrices;
}) {
  const u = sessionUsage(items, children);
  if (!u.totalTokens) return null;
  const price = prices?.current;
  const cost = formatCost(sessionCost(items, children, prices), price);
  const n = (x: number) => x.toLocaleString("en-US");
  const detail = `This session: ${n(u.promptTokens)} input and ${n(u.completionTokens)} output tokens` +
    (cost ? `, ${cost}${price?.source === "builtin" ? " at list price" : ""}` : "; set a price in Settings to see the cost");
  return (
    <span className="session-cost" role="status" aria-label={detail} title={detail}>
      {shortTokens(u.totalTokens)} tokens{cost && ` · ${cost}`}
    </span>
  );
}
