import { boardColumns, openDeps } from "../../team/model";
import type { TeamTask } from "../../bridge";

/** The task board: a column per status, each task with its id, title, owner and what it waits on. */
export function TeamBoard({ tasks }: { tasks: readonly TeamTask[] }) {
  return (
    <section className="team-board" aria-label="Task board">
      <h3 className="team-heading">Board</h3>
      {tasks.length === 0 && <p className="empty">No tasks yet. Tasks the team adds show up here.</p>}
      <div className="team-columns">
        {boardColumns(tasks).map((col) => (
          <section key={col.status} className={`team-column team-column-${col.status}`} aria-label={`${col.title}, ${col.tasks.length}`}>
            <h4>{col.title} <span className="team-count">{col.tasks.length}</span></h4>
            <ul>
              {col.tasks.map((t) => {
                const waits = col.status === "done" ? [] : openDeps(t, tasks);
                return (
                  <li key={t.id} className="team-task">
                    <span className="team-task-id mono">#{t.id}</span> <span className="team-task-title">{t.title}</span>
                    <span className="team-task-meta">
                      {t.owner ? `owner ${t.owner}` : "no owner"}
                      {(t.dependsOn ?? []).length > 0 && ` · after ${t.dependsOn!.map((d) => `#${d}`).join(", ")}`}
                      {waits.length > 0 && <span className="team-task-waits"> · waits on {waits.map((d) => `#${d}`).join(", ")}</span>}
                    </span>
                    {(t.notes ?? []).map((n, i) => <span key={i} className="team-task-note">{n}</span>)}
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
      </div>
    </section>
  );
}
