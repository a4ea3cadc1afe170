// Budgets as the backend meters them (internal/budget): the limits'
// names, and how much of each the session used.
import type { BudgetLimit, BudgetState } from "../bridge";

export const limitNames: Record<BudgetLimit, string> = {
  session_tokens: "the session's token limit",
  session_cost: "the session's spending limit",
  day_tokens: "the daily token limit",
  day_cost: "the daily spending limit",
};

/** Percent of limit l used (0 when it has no maximum). */
export function percentUsed(b: BudgetState, l: BudgetLimit): number {
  const [used, max] = {
    session_tokens: [b.sessionTokens, b.limits.sessionTokens ?? 0],
    session_cost: [b.sessionCost, b.limits.sessionCost ?? 0],
    day_tokens: [b.dayTokens, b.limits.dayTokens ?? 0],
    day_cost: [b.dayCost, b.limits.dayCost ?? 0],
  }[l];
  return max > 0 ? Math.floor((used / max) * 100) : 0;
}

/** A cost limit is set while a model with no price ran: it cannot apply to that model's tokens. */
export function costLimitCannotApply(b: BudgetState): boolean {
  return !!b.unpriced && ((b.limits.sessionCost ?? 0) > 0 || (b.limits.dayCost ?? 0) > 0);
}
