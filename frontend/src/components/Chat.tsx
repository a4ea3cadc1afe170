import { useEffect, useState } from "react";
import type { AppState } from "../bridge";
import type { TranscriptView } from "../transcript/store";
import { AgentSourcesContext, AgentsStrip, backgroundAgents, ChildrenContext } from "./ChildView";
import { Transcript } from "./Transcript";

export interface ChatProps {
  state: AppState;
  transcript: TranscriptView;
  onChooseWorkspace: () => void;
  /** Sends text; rejects with a message the user can read. */
  onSubmit: (text: string) => Promise<void>;
  onCancel: () => void;
  /** Stops a background agent; the agents strip shows only with it. */
  onStopAgent?: (id: string) => Promise<void>;
  /** The file each agent's definition came from, by agent name. */
  agentSources?: Readonly<Record<string, string>>;
}

export function Chat(props: ChatProps) {
  const [draft, setDraft] = useState("");
  const [error, setError] = useState<string | null>(null);
  const hasWorkspace = props.state.workspace !== "";
  const running = props.transcript.turnId !== "";

  const send = () => {
    const text = draft.trim();
    if (!hasWorkspace || text === "") return;
    setDraft("");
    setError(null);
    props.onSubmit(text).catch((e) => {
      setError(String(e instanceof Error ? e.message : e));
      setDraft((d) => (d === "" ? text : d));
    });
  };

  // Esc stops the running turn from anywhere in the window.
  const { onCancel } = props;
  useEffect(() => {
    if (!running) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented && !document.querySelector("[aria-modal='true']")) onCancel();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [running, onCancel]);

  const empty = hasWorkspace ? (
    <div className="empty-chat">
      <h1>What should we work on?</h1>
      <p>
        Ask for a change in <strong>{props.state.workspaceName}</strong>. You will see every edit and command before it
        runs.
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
  );

  return (
    <section className="chat" aria-label="Chat">
      {props.transcript.error && (
        <div className="banner error" role="alert">
          {props.transcript.error}
        </div>
      )}
      <AgentSourcesContext.Provider value={props.agentSources ?? {}}>
        <ChildrenContext.Provider value={props.transcript.children}>
          <Transcript items={hasWorkspace ? props.transcript.items : []} queued={props.transcript.queued} empty={empty} />
        </ChildrenContext.Provider>
      </AgentSourcesContext.Provider>
      {props.onStopAgent && (
        <AgentsStrip agents={backgroundAgents(props.transcript.items, props.transcript.children)} onStop={props.onStopAgent} />
      )}
      {error && (
        <div className="composer-error" role="alert">
          {error}
        </div>
      )}
      <form
        className="composer"
        onSubmit={(e) => {
          e.preventDefault();
          send();
        }}
      >
        <textarea
          aria-label="Message"
          placeholder={
            hasWorkspace
              ? running
                ? "Message…  (sent when the current turn ends)"
                : "Message…  (Enter to send, Shift+Enter for a new line)"
              : "Choose a folder first"
          }
          value={draft}
          disabled={!hasWorkspace}
          rows={2}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
              e.preventDefault();
              send();
            }
          }}
        />
        <div className="composer-buttons">
          {running && (
            <button type="button" className="danger" onClick={props.onCancel} title="Stop the running turn (Esc)">
              Stop
            </button>
          )}
          <button type="submit" className="primary" disabled={!hasWorkspace || draft.trim() === ""}>
            Send
          </button>
        </div>
      </form>
    </section>
  );
}
