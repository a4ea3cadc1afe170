import { memo, useEffect, useRef, useState } from "react";
import type { ProposedPlan } from "../bridge";
import { useChatActions } from "./ChatActions";
import { Markdown } from "./Markdown";

type Answer = "approved" | "revising" | "rejected" | undefined;

/**
 * A plan the model proposed in plan mode. While it is the last thing in the chat it waits for
 * the user: focus moves to it; "Approve and switch to safe / auto / manual" starts the turn that
 * carries it out, "Revise" sends a note back in plan mode, "Reject" sets it aside.
 */
export const PlanCard = memo(function PlanCard({ plan, waiting }: { plan: ProposedPlan; waiting: boolean }) {
  const { plan: actions } = useChatActions();
  const [answer, setAnswer] = useState<Answer>();
  const [note, setNote] = useState("");
  const [revise, setRevise] = useState(false);
  const [error, setError] = useState<string>();
  const ref = useRef<HTMLElement>(null);
  const open = waiting && !!actions && !answer;
  useEffect(() => {
    if (open) ref.current?.focus();
  }, [open]);
  const run = (a: Answer, p: Promise<void>) => {
    setError(undefined);
    setAnswer(a);
    p.catch((e) => {
      setAnswer(undefined);
      setError(String(e));
    });
  };
  return (
    <section ref={ref} tabIndex={-1} className={`plan-card${open ? " plan-waiting" : ""}`} role="region" aria-label="Proposed plan">
      <h3 className="plan-title">Proposed plan{answer === "rejected" ? " — rejected" : answer === "approved" ? " — approved" : ""}</h3>
      <Markdown text={plan.plan} />
      {open && (
        <div className="plan-actions">
          {(["safe", "auto", "manual"] as const).map((m) => (
            <button key={m} type="button" className={m === "safe" ? "primary" : ""} onClick={() => run("approved", actions!.approve(plan.plan, m))}>
              Approve and switch to {m}
            </button>
          ))}
          <button type="button" aria-expanded={revise} onClick={() => setRevise((r) => !r)}>
            Revise…
          </button>
          <button type="button" onClick={() => setAnswer("rejected")}>
            Reject
          </button>
        </div>
      )}
      {open && revise && (
        <form
          className="plan-revise"
          onSubmit={(e) => {
            e.preventDefault();
            run("revising", actions!.revise(note));
          }}
        >
          <label>
            What should change?
            <textarea value={note} rows={3} onInput={(e) => setNote((e.target as HTMLTextAreaElement).value)} />
          </label>
          <button type="submit">Send revision</button>
        </form>
      )}
      {error && (
        <p className="plan-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
});
