import { useCallback, useEffect, useId, useState } from "react";
import type { BudgetLimits, BudgetView } from "../../bridge";
import { SaveBar, useSave } from "./SaveBar";
import type { SectionProps } from "./sections";

type Field = keyof BudgetLimits;
const fields: { key: Field; label: string; hint: string }[] = [
  { key: "sessionCost", label: "Spending per session (US$)", hint: "each request priced at the model that answered it, subagents included" },
  { key: "sessionTokens", label: "Tokens per session", hint: "input + output" },
  { key: "dayCost", label: "Spending per day (US$)", hint: "every session of yours today: the window, exec runs, editors" },
  { key: "dayTokens", label: "Tokens per day", hint: "input + output, every session today" },
  { key: "callsPerMinute", label: "Tool calls per minute", hint: "a call past it waits for its turn; it does not stop the run" },
];

const text = (l: BudgetLimits | undefined): Record<Field, string> =>
  Object.fromEntries(fields.map((f) => [f.key, l?.[f.key] ? String(l[f.key]) : ""])) as Record<Field, string>;

/** The spending, token and calls-per-minute limits, with the day's spend so far. */
export function BudgetSection({ deps, setDirty, onSaved }: SectionProps) {
  const backend = deps.budget;
  const id = useId();
  const [view, setView] = useState<BudgetView | null>(null);
  const [draft, setDraft] = useState<Record<Field, string>>(() => text(undefined));
  const [loadError, setLoadError] = useState("");
  useEffect(() => {
    backend?.getBudget().then((v) => (setView(v), setDraft(text(v.limits))), (e) => setLoadError(`Could not load the budget: ${String(e)}`));
  }, [backend]);
  const dirty = view !== null && fields.some((f) => draft[f.key] !== text(view.limits)[f.key]);
  useEffect(() => setDirty(dirty), [dirty, setDirty]);

  const save = useSave(useCallback(async () => {
    if (!backend) return;
    const l: BudgetLimits = {};
    for (const f of fields) {
      const s = draft[f.key].trim();
      const n = s === "" ? 0 : Number(s);
      if (!Number.isFinite(n) || n < 0) throw new Error(`${f.label}: a number of 0 (no limit) or more, not "${s}".`);
      l[f.key] = f.key.endsWith("Cost") ? n : Math.floor(n);
    }
    const v = await backend.saveBudget(l);
    setView(v);
    setDraft(text(v.limits));
    onSaved();
  }, [backend, draft, onSaved]));

  if (!backend) return <p>Budgets cannot be set here.</p>;
  return (
    <form className="settings-form" onSubmit={(e) => (e.preventDefault(), void save.run())}>
      {loadError && <p className="settings-error" role="alert">{loadError}</p>}
      {view && (
        <p role="status" aria-label="Spent today">
          Today so far: {view.dayTokens.toLocaleString("en-US")} tokens · ${view.dayCost.toFixed(view.dayCost < 0.01 && view.dayCost > 0 ? 4 : 2)}
        </p>
      )}
      <p className="settings-hint">Empty or 0: no limit. At 80% the header warns; at 100% the run stops and you can raise the limit for that session.</p>
      {fields.map((f) => (
        <label key={f.key} className="settings-field" htmlFor={`${id}-${f.key}`}>
          <span>{f.label}</span>
          <input id={`${id}-${f.key}`} inputMode="decimal" value={draft[f.key]} disabled={view === null} title={f.hint}
            onChange={(e) => (setDraft({ ...draft, [f.key]: e.target.value }), save.reset())} />
          <small>{f.hint}</small>
        </label>
      ))}
      <SaveBar dirty={dirty} busy={save.busy} outcome={save.outcome} />
    </form>
  );
}
