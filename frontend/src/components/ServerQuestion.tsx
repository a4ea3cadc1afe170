import { useEffect, useRef, useState } from "react";
import { createPortal } from "react-dom";
import type { FormField, QuestionAskedPayload } from "../bridge";

type Action = "accept" | "decline" | "cancel";
type Values = Record<string, string | boolean>;

/** The form's starting values: each field's default, as the inputs hold them. */
function initial(fields: readonly FormField[]): Values {
  const v: Values = {};
  for (const f of fields) {
    if (f.type === "boolean") v[f.name] = f.default === true;
    else if (f.default !== undefined && f.default !== null) v[f.name] = String(f.default);
    else v[f.name] = "";
  }
  return v;
}

/** What is sent: booleans as they are, numbers as numbers, empty optional fields left out (the backend checks again). */
function answerOf(fields: readonly FormField[], v: Values): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const x = v[f.name];
    if (typeof x === "boolean") out[f.name] = x;
    else if (x === "") continue;
    else if (f.type === "number" || f.type === "integer") out[f.name] = Number(x);
    else out[f.name] = x;
  }
  return out;
}

function Field({ f, value, set, first }: { f: FormField; value: string | boolean; set: (v: string | boolean) => void; first: boolean }) {
  const label = f.title || f.name;
  const id = `sq-${f.name}`;
  const common = { id, "aria-describedby": f.description ? `${id}-d` : undefined, autoFocus: first, "data-autofocus": first || undefined };
  let input;
  if (f.type === "boolean") {
    input = <input type="checkbox" {...common} checked={value === true} onChange={(e) => set((e.target as HTMLInputElement).checked)} />;
  } else if (f.type === "enum") {
    input = (
      <select {...common} value={String(value)} required={f.required} onChange={(e) => set((e.target as HTMLSelectElement).value)}>
        {!f.required && <option value="">—</option>}
        {(f.options ?? []).map((o) => <option key={o.value} value={o.value}>{o.title || o.value}</option>)}
      </select>
    );
  } else {
    const num = f.type === "number" || f.type === "integer";
    const type = num ? "number" : f.format === "email" ? "email" : f.format === "uri" ? "url" : f.format === "date" ? "date" : "text";
    input = (
      <input {...common} type={type} value={String(value)} required={f.required} min={f.min} max={f.max} step={f.type === "integer" ? 1 : num ? "any" : undefined}
        minLength={f.minLength} maxLength={f.maxLength} onInput={(e) => set((e.target as HTMLInputElement).value)} />
    );
  }
  return (
    <div className="server-question-field">
      <label htmlFor={id}>{label}{f.required ? " *" : ""}</label>
      {input}
      {f.description && <small id={`${id}-d`}>{f.description}</small>}
    </div>
  );
}

/**
 * An MCP server's question (elicitation) as a dialog: it names the server (and says when the
 * server is the workspace's own), asks the fields of its form, and answers Accept (Enter),
 * Decline, or Cancel (Escape). The backend checks the values again before they are sent.
 */
export function ServerQuestionDialog({ question, answer, session }: {
  question: QuestionAskedPayload;
  answer: (id: string, action: Action, values: Record<string, unknown>) => Promise<void>;
  session?: string;
}) {
  const [values, setValues] = useState<Values>(() => initial(question.fields ?? []));
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState(false);
  const root = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const el = root.current?.querySelector<HTMLElement>("[data-autofocus]") ?? root.current?.querySelector<HTMLElement>("button");
    el?.focus();
  }, []);
  const send = (action: Action) => {
    setSent(true);
    setError(undefined);
    answer(question.questionId, action, action === "accept" ? answerOf(question.fields ?? [], values) : {}).catch((e) => {
      setSent(false);
      setError(String(e));
    });
  };
  const from = `MCP server ${question.server}${question.workspace ? " (from the workspace)" : ""}`;
  const titleId = `sq-title-${question.questionId}`;
  return (
    <div className="approval-backdrop">
      <form className="approval-dialog server-question" role="dialog" aria-modal="true" aria-labelledby={titleId} ref={root}
        onSubmit={(e) => { e.preventDefault(); if (!sent) send("accept"); }}
        onKeyDown={(e) => { if (e.key === "Escape") { e.preventDefault(); if (!sent) send("cancel"); } }}>
        <header className="approval-head">
          <h2 id={titleId}>{from} asks{session ? ` (${session})` : ""}</h2>
        </header>
        <p className="approval-summary">{question.message}</p>
        {(question.fields ?? []).map((f, i) => (
          <Field key={f.name} f={f} first={i === 0} value={values[f.name] ?? ""} set={(v) => setValues((old) => ({ ...old, [f.name]: v }))} />
        ))}
        {error && <p className="question-error" role="alert">{error}</p>}
        <div className="approval-actions">
          <button type="submit" disabled={sent}>Accept</button>
          <button type="button" disabled={sent} onClick={() => send("decline")}>Decline</button>
          <button type="button" disabled={sent} onClick={() => send("cancel")}>Cancel</button>
        </div>
      </form>
    </div>
  );
}

/** The first waiting server question of the tab shown, drawn over the window. */
export function ServerQuestionHost({ pending, answer, hidden, session }: {
  pending: readonly QuestionAskedPayload[] | undefined;
  answer: (id: string, action: Action, values: Record<string, unknown>) => Promise<void>;
  hidden?: boolean;
  session?: string;
}) {
  const q = pending?.[0];
  if (!q || hidden) return null;
  return createPortal(<ServerQuestionDialog key={q.questionId} question={q} answer={answer} session={session} />, document.body);
}
