// Tokens and what they cost: per turn (its stop marker's usage) and for the
// session (the sum over its turns), priced per million input and output tokens.
import type { Price, SettingsView, TranscriptItem, Usage } from "../bridge";

/** A model's price as the settings give it; source "" means none is known. */
export interface ModelPrice {
  price: Price;
  source: SettingsView["priceSource"];
}

const zero: Usage = { promptTokens: 0, completionTokens: 0, totalTokens: 0, cachedTokens: 0 };

/** The session's usage: the sum of its turns'. */
export function sessionUsage(items: readonly TranscriptItem[], children?: Readonly<Record<string, { items: readonly TranscriptItem[] | null }>>): Usage {
  let u = zero;
  // A subagent's turns are the session's too: their stop markers are summed beside the parent's.
  const all = children ? [...items, ...Object.values(children).flatMap((c) => c.items ?? [])] : items;
  for (const it of all) {
    if (it.kind !== "stop" || !it.usage) continue;
    u = {
      promptTokens: u.promptTokens + it.usage.promptTokens,
      completionTokens: u.completionTokens + it.usage.completionTokens,
      totalTokens: u.totalTokens + it.usage.totalTokens,
      cachedTokens: u.cachedTokens + it.usage.cachedTokens,
    };
  }
  return u;
}

/** What usage cost in US dollars at price; undefined when no price is known. */
export function costOf(u: Usage | undefined, p: ModelPrice | undefined): number | undefined {
  if (!u || !p || p.source === "") return undefined;
  return (u.promptTokens * p.price.inputPerMTok + u.completionTokens * p.price.outputPerMTok) / 1e6;
}

/** "$0.0123", "$1.23", "free" (a local server or a zero price). */
export function formatCost(usd: number | undefined, p?: ModelPrice): string {
  if (usd === undefined) return "";
  if (usd === 0) return p?.source === "local" ? "free (local server)" : "$0.00";
  if (usd < 0.01) return `$${usd.toFixed(4)}`;
  return `$${usd.toFixed(2)}`;
}

/** "12.3k" tokens. */
export function shortTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}
