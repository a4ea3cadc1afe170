import { memo, useEffect, useRef, useState } from "react";
import type { TranscriptItem } from "../bridge";
import { useChatActions } from "./ChatActions";

/** The question of a running ask_user call, from its arguments. */
export function questionOf(item: TranscriptItem): { question: string; choices: string[] } | undefined {
  if (item.kind !== "tool" || item.tool !== "ask_user" || !item.running) return undefined;
  const a = item.args as { question?: unknown; choices?: unknown } | undefined;
  if (typeof a?.question !== "string") return undefined;
  const choices = Array.isArray(a.choices) ? a.choices.filter((c): c is string => typeof c === "string") : [];
  return { question: a.question, choices };
}

/**
 * The model's question (ask_user) while it waits: in the chat, focused when it comes, its
 * choices as buttons or a text answer. The answer is the call's result.
 */
export const QuestionCard = memo(function QuestionCard({ item }: { item: TranscriptItem }) {
  const { answer } = useChatActions();
  const q = questionOf(item);
  const [text, setText] = useState("");
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string>();
  const ref = useRef<HTMLElement>(null);
  useEffect(() => ref.current?.focus(), []);
  if (!q || !answer) return null;
  const send = (a: string) => {
    setSent(true);
    setError(undefined);
    answer(item.id ?? "", a).catch((e) => {
      setSent(false);
      setError(String(e));
    });
  };
  return (
    <section ref={ref} tabIndex={-1} className="question-card" role="region" aria-label="Question from the agent">
      <p className="question-text">{q.question}</p>
      {q.choices.length > 0 ? (
        <div className="question-choices">
          {q.choices.map((c) => (
            <button key={c} type="button" disabled={sent} onClick={() => send(c)}>
              {c}
            </button>
          ))}
        </div>
      ) : (
        <form
          className="question-free"
          onSubmit={(e) => {
            e.preventDefault();
            if (text.trim()) send(text.trim());
          }}
        >
          <input aria-label="Your answer" value={text} disabled={sent} onInput={(e) => setText((e.target as HTMLInputElement).value)} />
          <button type="submit" disabled={sent || !text.trim()}>
            Answer
          </button>
        </form>
      )}
      {error && (
        <p className="question-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
});
