import type { TeamMessage } from "../../bridge";

/** The messages between the lead and its teammates, oldest first; only those to or from one teammate (and to all) when one is named. */
export function TeamMessages({ messages, of }: { messages: readonly TeamMessage[]; of?: string }) {
  const shown = of ? messages.filter((m) => m.from === of || m.to === of || m.to === "all") : messages;
  return (
    <section className="team-messages" aria-label={of ? `Messages of ${of}` : "Team messages"}>
      <h3 className="team-heading">Messages</h3>
      {shown.length === 0 ? <p className="empty">No messages yet.</p> : (
        <div role="log" aria-live="polite">
          <ol className="team-thread">
            {shown.map((m, i) => (
              <li key={m.id || i} className="team-message">
                <span className="team-message-who">{m.from} → {m.to}</span>
                <span className="team-message-text">{m.text}</span>
              </li>
            ))}
          </ol>
        </div>
      )}
    </section>
  );
}
