import { createContext, useContext } from "react";
import type { TranscriptItem } from "../../bridge";
import { toolError } from "../toolSummary";
import "./TeamMessageCard.css";

/** Who speaks in the transcript drawn: "lead" in the chat, a teammate's name in its transcript in the Team panel. */
export const TeamSpeakerContext = createContext("lead");

/** A team message as a compact card: from → to, the text, and, when it was not delivered, why. */
function TeamMessageView({ from, to, text, status, error }: { from: string; to: string; text: string; status: string; error?: string }) {
  return (
    <div className={`team-msg-card${error ? " team-msg-failed" : ""}`} role="group" aria-label={`Message from ${from} to ${to}, ${status}`}>
      <div className="team-msg-who">
        <span aria-hidden>✉ </span>{from} → {to}
        {status !== "sent" && <span className="team-msg-status">{status}</span>}
      </div>
      <div className="team-msg-text">{text}</div>
      {error && <div className="tool-error">{error}</div>}
    </div>
  );
}

/** A team_message call, sent by whoever's transcript it is in. */
export function TeamMessageCard({ item }: { item: TranscriptItem }) {
  const from = useContext(TeamSpeakerContext);
  const a = (item.args && typeof item.args === "object" ? item.args : {}) as { to?: unknown; text?: unknown };
  const status = item.running ? "sending" : item.isError ? "not delivered" : "sent";
  return <TeamMessageView from={from} to={typeof a.to === "string" ? a.to : "?"} text={typeof a.text === "string" ? a.text : ""}
    status={status} error={item.running ? "" : toolError(item)} />;
}

/** A message between members that the lead's transcript tells as it came (a team_message item). */
export function TeamMessageItem({ item }: { item: TranscriptItem }) {
  const m = item.message;
  return m ? <TeamMessageView from={m.from} to={m.to} text={m.text} status="sent" /> : null;
}

/** The prompt of a turn the team starts for the lead (internal/team's wakeLead) begins so. */
const WAKE_PREFIX = "[team] ";

/** Whether a user item is the team waking the lead rather than the user's message. */
export function isTeamWake(it: TranscriptItem): boolean {
  return it.kind === "user" && (it.text ?? "").startsWith(WAKE_PREFIX);
}

/** A turn the team started for the lead, told as the team's, never as "you". */
export function TeamWake({ item }: { item: TranscriptItem }) {
  return (
    <div className="team-wake" role="note" aria-label="The team woke the lead">
      <span aria-hidden>✉ </span>team → lead: {(item.text ?? "").slice(WAKE_PREFIX.length)}
    </div>
  );
}
