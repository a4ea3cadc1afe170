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
export function sessionUsage(items: readonly TranscriptItem[], children?: Children): Usage {
  let u = zero;
  // A subagent's turns are the session's too: their stop markers are summed beside the parent's.
  for (const it of stops(items, children)) {
    if (!it.usage) continue;
    u = {
      promptTokens: u.promptTokens + it.usage.promptTokens,
      completionTokens: u.completionTokens + it.usage.completionTokens,
      totalTokens: u.totalTokens + it.usage.totalTokens,
      cachedTokens: u.cachedTokens + it.usage.cachedTokens,
    };
  }
  return u;
}

/** Prices for a session's turns: each at the model that ran it (byModel);
 * current, the model in effect, prices a turn that names none (saved before
 * turns carried their model). */
export interface TurnPrices {
  byModel: Readonly<Record<string, ModelPrice>>;
  current?: ModelPrice;
}

/** The price of a turn that ran on model. */
export function turnPrice(p: TurnPrices | undefined, model: string | undefined): ModelPrice | undefined {
  return model ? p?.byModel[model] : p?.current;
}

type Children = Readonly<Record<string, { items: readonly TranscriptItem[] | null }>>;

function stops(items: readonly TranscriptItem[], children?: Children): TranscriptItem[] {
  const all = children ? [...items, ...Object.values(children).flatMap((c) => c.items ?? [])] : items;
  return all.filter((it) => it.kind === "stop" && !!it.usage);
}

/** The models the session's turns (its subagents' included) ran on. */
export function turnModels(items: readonly TranscriptItem[], children?: Children): string[] {
  return [...new Set(stops(items, children).map((it) => it.model ?? "").filter((m) => m))].sort();
}

/** What the session's turns cost, each as the backend priced it at its own
 * model (internal/budget); a turn saved before turns carried their cost is
 * priced here. Undefined while a turn that used tokens has no known price. */
export function sessionCost(items: readonly TranscriptItem[], children: Children | undefined, p: TurnPrices | undefined): number | undefined {
  let sum = 0;
  for (const it of stops(items, children)) {
    if (!it.usage!.totalTokens) continue;
    const c = it.cost ?? costOf(it.usage, turnPrice(p, it.model));
    if (c === undefined) return undefined;
    sum += c;
  }
  return sum;
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
