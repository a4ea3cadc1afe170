import { useState } from "react";
import type { BudgetStop } from "../bridge";
import { limitNames } from "./budget";

/** The end of a turn a budget limit stopped: raise the limit for this session and go on, or stop. */
export function BudgetBanner({ stop, onRaise }: { stop: BudgetStop; onRaise?: () => Promise<void> }) {
  const [state, setState] = useState<"open" | "busy" | "closed">("open");
  const [error, setError] = useState("");
  if (state === "closed") return null;
  return (
    <div className="banner budget-banner" role="alert" aria-label="Budget limit reached">
      <p>Stopped: {stop.message}.</p>
      {error && <p className="error">{error}</p>}
      {onRaise && (
        <button type="button" disabled={state === "busy"} onClick={() => {
          setState("busy");
          onRaise().then(() => setState("closed"), (e) => {
            setError(String(e));
            setState("open");
          });
        }}>
          Raise {limitNames[stop.limit]} for this session and continue
        </button>
      )}
      <button type="button" className="secondary" onClick={() => setState("closed")}>Stop</button>
    </div>
  );
}
