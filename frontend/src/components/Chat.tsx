import { useState } from "react";
import type { AppState } from "../bridge";

export function Chat(props: { state: AppState; onChooseWorkspace: () => void }) {
  const [draft, setDraft] = useState("");
  const hasWorkspace = props.state.workspace !== "";
  return (
    <section className="chat" aria-label="Chat">
      <div className="transcript" role="log" aria-live="polite">
        {hasWorkspace ? (
          <div className="empty-chat">
            <h1>What should we work on?</h1>
            <p>
              Ask for a change in <strong>{props.state.workspaceName}</strong>. You will see every edit and
              command before it runs.
            </p>
          </div>
        ) : (
          <div className="empty-chat">
            <h1>Choose a folder to start</h1>
            <p>Gatehouse works inside one folder. Nothing outside it is touched.</p>
            <button className="primary" onClick={props.onChooseWorkspace}>
              Choose folder…
            </button>
          </div>
        )}
      </div>
      <form className="composer" onSubmit={(e) => e.preventDefault()}>
        <textarea
          aria-label="Message"
          placeholder={hasWorkspace ? "Message…  (Enter to send, Shift+Enter for a new line)" : "Choose a folder first"}
          value={draft}
          disabled={!hasWorkspace}
          rows={2}
          onChange={(e) => setDraft(e.target.value)}
        />
        <button type="submit" className="primary" disabled={!hasWorkspace || draft.trim() === ""}>
          Send
        </button>
      </form>
    </section>
  );
}
