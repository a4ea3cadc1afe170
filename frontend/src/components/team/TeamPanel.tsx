import { useState } from "react";
import type { ApprovalRequestedPayload, ChildTranscript, TeamState } from "../../bridge";
import { teammateRows } from "../../team/model";
import { ChildItem } from "../ChildView";
import { TeamBoard } from "./TeamBoard";
import { TeamMessages } from "./TeamMessages";
import { TeamRoster } from "./TeamRoster";
import { TeamSpeakerContext } from "./TeamMessageCard";
import "./TeamPanel.css";

/**
 * The Team panel (UX.md, "A team"): the team's notices (a cap reached, a
 * mutual wait), the roster, then either the board and the messages, or the
 * transcript of the teammate picked in the roster, read-only, drawn with the
 * chat's own cards.
 */
export function TeamPanel({ team, transcripts, pending, onAnswer, onStop }: {
  team: TeamState;
  /** The session's child transcripts by the call that started each: a teammate's is under its callId. */
  transcripts: Readonly<Record<string, ChildTranscript>>;
  /** The session's approvals waiting, the teammates' among them (named by agent). */
  pending: readonly ApprovalRequestedPayload[];
  onAnswer: (approvalId: string) => void;
  onStop?: (name: string) => Promise<void>;
}) {
  const [selected, setSelected] = useState<string | undefined>();
  const rows = teammateRows(team.teammates ?? [], pending);
  const mate = rows.find((r) => r.mate.name === selected)?.mate;
  const messages = team.messages ?? [];
  const notices = team.notices ?? [];
  return (
    <div className="team-panel">
      {notices.length > 0 && (
        <ul className="team-notices" aria-label="Team notices">
          {notices.map((n, i) => <li key={i} className={`team-notice team-notice-${n.kind}`}><span aria-hidden>⚠ </span>{n.text}</li>)}
        </ul>
      )}
      <TeamRoster rows={rows} selected={mate?.name} onSelect={(n) => setSelected(n === selected ? undefined : n)} onAnswer={onAnswer} onStop={onStop} />
      {mate ? (
        <TeammateTranscript name={mate.name} agent={mate.agent} worktree={mate.worktree} transcript={transcripts[mate.callId]}
          onClose={() => setSelected(undefined)}>
          <TeamMessages messages={messages} of={mate.name} />
        </TeammateTranscript>
      ) : (
        <>
          <TeamBoard tasks={team.board ?? []} />
          <TeamMessages messages={messages} />
        </>
      )}
    </div>
  );
}

/** One teammate's transcript, read-only; its messages follow. */
function TeammateTranscript({ name, agent, worktree, transcript, onClose, children }: {
  name: string;
  agent: string;
  worktree?: string;
  transcript?: ChildTranscript;
  onClose: () => void;
  children?: React.ReactNode;
}) {
  const items = transcript?.items ?? [];
  return (
    <section className="team-transcript" aria-label={`${name} transcript`}>
      <div className="team-transcript-head">
        <button type="button" onClick={onClose} aria-label="Back to the board">‹ Board</button>
        <h3 className="team-heading">{name} <span className="team-mate-agent">{agent}</span></h3>
      </div>
      {worktree && <p className="team-worktree">works in <span className="mono">{worktree}</span></p>}
      {items.length === 0 ? <p className="empty">{name} has not started yet.</p> : (
        <div className="child-items" role="log" aria-label={`${name} says`}>
          <TeamSpeakerContext.Provider value={name}>
            {items.map((it, i) => <ChildItem key={`${it.kind}:${it.id ?? i}`} item={it} />)}
          </TeamSpeakerContext.Provider>
        </div>
      )}
      {children}
    </section>
  );
}
