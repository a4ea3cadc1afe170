import { memo, useState } from "react";
import type { TranscriptItem } from "../bridge";

export interface Todo {
  content: string;
  status: "pending" | "in_progress" | "done";
}

/** The model's todo list: the last todo_write call of the transcript that did not fail (each holds the whole list). */
export function currentTodos(items: readonly TranscriptItem[]): Todo[] {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i];
    if (it.kind !== "tool" || it.tool !== "todo_write" || it.isError) continue;
    const todos = (it.args as { todos?: unknown } | undefined)?.todos;
    if (!Array.isArray(todos)) continue;
    return todos.filter((t): t is Todo => !!t && typeof t.content === "string" && ["pending", "in_progress", "done"].includes(t.status));
  }
  return [];
}

const marks: Record<Todo["status"], string> = { pending: "○", in_progress: "◐", done: "✓" };
const words: Record<Todo["status"], string> = { pending: "to do", in_progress: "in progress", done: "done" };

/**
 * The checklist pinned above the composer: open while a turn runs, folded to one line
 * ("3 of 7 done") when it does not; the user can open or fold it either way.
 */
export const TodoChecklist = memo(function TodoChecklist({ items, running }: { items: readonly TranscriptItem[]; running: boolean }) {
  const todos = currentTodos(items);
  const [toggled, setToggled] = useState<boolean | undefined>();
  if (todos.length === 0) return null;
  const open = toggled ?? running;
  const done = todos.filter((t) => t.status === "done").length;
  const summary = `${done} of ${todos.length} done`;
  return (
    <section className="todo-checklist" aria-label="Todo list">
      <button type="button" className="todo-summary link-button" aria-expanded={open} onClick={() => setToggled(!open)}>
        Todo list · {summary}
      </button>
      {open && (
        <ul className="todo-items" aria-live="polite">
          {todos.map((t, i) => (
            <li key={i} className={`todo-${t.status}`} aria-label={`${t.content}: ${words[t.status]}`}>
              <span className="todo-mark" aria-hidden>
                {marks[t.status]}
              </span>{" "}
              {t.content}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
});
