import { createContext, useContext } from "react";
import type { TranscriptItem } from "../../bridge";
import { toolError } from "../toolSummary";
import "./TeamMessageCard.css";

/** Who speaks in the transcript drawn: "lead" in the chat, a teammate's name in its transcript in the Team panel. */
export const TeamSpeakerContext = createContext("lead");

/** A team_message call as a compact card: from → to, the text, and why it was not delivered when it was not. */
export function TeamMessageCard({ item }: { item: TranscriptItem }) {
  const from = useContext(TeamSpeakerContext);
  const a = (item.args && typeof item.args === "object" ? item.args : {}) as { to?: unknown; text?: unknown };
  const to = typeof a.to === "string" ? a.to : "?";
  const text = typeof a.text === "string" ? a.text : "";
  const status = item.running ? "sending" : item.isError ? "not delivered" : "sent";
  const error = item.running ? "" : toolError(item);
  return (
    <div className={`team-msg-card${item.isError ? " team-msg-failed" : ""}`} role="group" aria-label={`Message from ${from} to ${to}, ${status}`}>
      <div className="team-msg-who">
        <span aria-hidden>✉ </span>{from} → {to}
        {status !== "sent" && <span className="team-msg-status">{status}</span>}
      </div>
      <div className="team-msg-text">{text}</div>
      {error && <div className="tool-error">{error}</div>}
    </div>
  );
}
