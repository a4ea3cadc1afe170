import type { BudgetState } from "../bridge";
import { costLimitCannotApply, limitNames, percentUsed } from "./budget";

/** The header's budget warning: a limit at 80% or more, or a cost limit a model with no price escapes. */
export function BudgetBadge({ budget }: { budget?: BudgetState }) {
  if (!budget) return null;
  const warn = budget.exhausted?.limit ?? budget.warnings?.[0];
  const unpriced = costLimitCannotApply(budget);
  if (!warn && !unpriced) return null;
  const text = warn
    ? `${percentUsed(budget, warn)}% of ${limitNames[warn]}`
    : "cost limit cannot apply";
  const detail = warn
    ? `${percentUsed(budget, warn)}% of ${limitNames[warn]} is used; at 100% the run stops.`
    : `${budget.unpricedModel || "The model"} has no known price: its tokens count, but the cost limit cannot apply. Set its price in Settings.`;
  return (
    <span className="badge badge-warn budget-badge" role="status" aria-label={`Budget: ${detail}`} title={detail}>
      <span aria-hidden>⚠ </span>
      {text}
    </span>
  );
}
