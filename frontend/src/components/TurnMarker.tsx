import { memo } from "react";
import type { StopReason, TranscriptItem, Usage } from "../bridge";
import { useChatActions } from "./ChatActions";
import { costOf, formatCost, turnPrice } from "./cost";
import { BudgetBanner } from "./BudgetBanner";

const words: Record<StopReason, string> = {
  completed: "completed",
  cancelled: "cancelled by you",
  blocked_by_approval: "blocked: you rejected a tool call",
  max_steps: "stopped: the step limit was reached",
  error: "stopped by an error",
  budget_exhausted: "stopped: a budget limit was reached",
};

/** What the user can do about a model error, by errorKind (see internal/llm/errors.go). */
const advice: Record<string, { text: string; settings?: boolean }> = {
  key_rejected: { text: "Check the API key in Settings.", settings: true },
  model_unknown: { text: "Check the model name in Settings.", settings: true },
  unreachable: { text: "Check the base URL in Settings and that the model server is running, then send again.", settings: true },
  bad_config: { text: "Check the settings.", settings: true },
  rate_limited: { text: "The server asks to slow down: wait a moment, then send again." },
  context_overflow: { text: "The conversation no longer fits the model, even compacted: start a new session or ask for less." },
  server_error: { text: "The model server had a problem: send again in a moment." },
  bad_request: { text: "The server refused the request: try a different model or a shorter message." },
  bad_response: { text: "The server's answer could not be read: send again, or try another model." },
  interrupted: { text: "Send a message to go on from the last step shown." },
};

// One formatter for every marker: toLocaleString makes a new one per call, a cost on each row mounted while scrolling.
const grouped = new Intl.NumberFormat("en-US");

export function formatUsage(u: Usage | undefined): string {
  if (!u || !u.totalTokens) return "no tokens";
  const n = (x: number) => grouped.format(x);
  return `${n(u.totalTokens)} tokens (${n(u.promptTokens)} in · ${n(u.completionTokens)} out)`;
}

/** The stop reason in words; a rejection names the tool and the user's note. */
export function stopWords(item: TranscriptItem): string {
  const reason = (item.reason ?? "completed") as StopReason;
  const b = item.blocked;
  if (reason === "blocked_by_approval" && b) {
    return `blocked: you rejected ${b.tool}` + (b.note ? ` — note: ${b.note}` : "");
  }
  // Added on resume to a turn the session's log ends inside (internal/session).
  if (reason === "error" && item.errorKind === "interrupted") return "interrupted: Gatehouse closed before the turn ended";
  return words[reason] ?? reason;
}

/** The end of a turn: its stop reason in words and its token usage. */
export const TurnMarker = memo(function TurnMarker({ item, last }: { item: TranscriptItem; last?: boolean }) {
  const { openSettings, newSession, retry, prices, undo, raiseBudget } = useChatActions();
  // Priced at the model that ran this turn, not the one in effect now.
  const price = turnPrice(prices, item.model);
  const changedFiles = !!(undo && item.turnId && undo.units.has(item.turnId));
  // What the backend priced the turn at; turns saved before it did are priced here.
  const cost = formatCost(item.cost ?? costOf(item.usage, price), price);
  const trimmed = item.context?.trimmed ?? 0;
  const reason = (item.reason ?? "completed") as StopReason;
  const tip = reason === "error" ? advice[item.errorKind ?? ""] : undefined;
  return (
    <div className={`turn-marker turn-${reason}`} role="note" aria-label="End of turn">
      <div className="turn-line">
        <span>
          {stopWords(item)} · {formatUsage(item.usage)}
          {cost && ` · ${cost}`}
        </span>
        {changedFiles && (
          <span className="turn-undo">
            <button className="link-button" onClick={() => undo!.open(item.turnId, "turn")}>Review changes</button>
            <button className="link-button" onClick={() => undo!.open(item.turnId, "undo")}>Undo…</button>
          </span>
        )}
        {last && retry && (
          <button type="button" className="link-button turn-retry" onClick={retry} title="Send this turn's message again">
            Retry
          </button>
        )}
      </div>
      {trimmed > 0 && (
        <p className="turn-trimmed">
          Older tool output was cleared to fit the model's context ({trimmed} result{trimmed === 1 ? "" : "s"}); the model sees a note
          saying how to get it again.
        </p>
      )}
      {reason === "budget_exhausted" && item.budget && last && (
        <BudgetBanner stop={item.budget} onRaise={raiseBudget && (() => raiseBudget(item.budget!.limit))} />
      )}
      {reason === "error" && (
        <div className="turn-error" role="alert">
          <p>{item.error || "The model call failed."}</p>
          {tip && <p className="turn-advice">{tip.text}</p>}
          {item.errorKind === "context_overflow" && newSession && (
            <button className="link-button" onClick={newSession}>
              Start a new session
            </button>
          )}
          {tip?.settings && (
            <button className="link-button" onClick={() => openSettings("model")}>
              Open settings
            </button>
          )}
        </div>
      )}
    </div>
  );
});
