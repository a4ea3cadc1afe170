import { useState } from "react";
import type { Teammate } from "../../bridge";
import { stateIcon, type TeammateRow } from "../../team/model";

/** Where a teammate in its own worktree works, for its row's name ("" in the lead's workspace). */
function worktreeWords(mate: Teammate): string {
  if (!mate.worktree) return "";
  return `, in its worktree${mate.worktreeBranch ? ` on ${mate.worktreeBranch}` : ""} at ${mate.worktree}`;
}

/**
 * One row per teammate: a state mark and its word, the name, its agent and
 * what it works on. A click shows its transcript; a teammate waiting for
 * you has a button that opens its dialog, and a live one a Stop button.
 */
export function TeamRoster({ rows, selected, onSelect, onAnswer, onStop }: {
  rows: readonly TeammateRow[];
  selected?: string;
  onSelect: (name: string) => void;
  /** Opens the approval dialog of this id in front of the others. */
  onAnswer: (approvalId: string) => void;
  onStop?: (name: string) => Promise<void>;
}) {
  const [error, setError] = useState("");
  if (rows.length === 0) return <p className="empty">No teammates yet. The lead starts them with team_spawn.</p>;
  return (
    <>
      <ul className="team-roster" aria-label="Teammates">
        {rows.map(({ mate, shown, waiting }) => {
          const kind = shown.replaceAll(" ", "-");
          return (
            <li key={mate.name} className={`team-mate team-${kind}${selected === mate.name ? " selected" : ""}`}>
              <button type="button" className="team-mate-select" aria-current={selected === mate.name ? "true" : undefined}
                aria-label={`${mate.name}, ${mate.agent} agent, ${shown}${mate.task ? `: ${mate.task}` : ""}${worktreeWords(mate)}. Show its transcript`}
                onClick={() => onSelect(mate.name)}>
                <span className="team-mate-icon" aria-hidden>{stateIcon(shown)}</span>
                <span className="team-mate-name">{mate.name}</span>
                <span className="team-mate-agent">{mate.agent}</span>
                <span className="team-mate-state">{shown}{shown === "stopped" && mate.reason ? ` (${mate.reason})` : ""}</span>
                {mate.task && <span className="team-mate-task">{mate.task}</span>}
                {mate.worktree && (
                  <span className="team-mate-worktree" title={mate.worktree}>
                    <span aria-hidden>⎇ </span>{mate.worktreeBranch || "worktree"} <span className="team-mate-worktree-path">{mate.worktree}</span>
                  </span>
                )}
              </button>
              {waiting.length > 0 && (
                <button type="button" className="primary team-mate-answer" onClick={() => onAnswer(waiting[0].approvalId)}
                  aria-label={`Answer ${mate.name} › ${waiting[0].tool}`}>
                  Answer {waiting[0].tool}{waiting.length > 1 ? ` (+${waiting.length - 1})` : ""}
                </button>
              )}
              {onStop && shown !== "stopped" && (
                <button type="button" className="team-mate-stop" aria-label={`Stop ${mate.name}`}
                  onClick={() => onStop(mate.name).then(() => setError(""), (e) => setError(`Could not stop ${mate.name}: ${String(e)}`))}>
                  Stop
                </button>
              )}
            </li>
          );
        })}
      </ul>
      {error && <p className="team-error" role="alert">{error}</p>}
    </>
  );
}
