import { useEffect, useState } from "react";
import type { AgentDefinition } from "../../bridge";
import type { SectionProps } from "./sections";

/** The agents the open session may hand work to, and the file each comes from. */
export function AgentsSection({ deps }: SectionProps) {
  const [agents, setAgents] = useState<AgentDefinition[] | null>(null);
  const [error, setError] = useState("");
  useEffect(() => {
    deps.agents?.().then(setAgents, (e) => setError(`Could not list the agents: ${String(e)}`));
  }, [deps.agents]);
  return (
    <div className="settings-info">
      <p>
        Agents the model can hand work to in this session. A workspace adds its own in <code>.gatehouse/agents/</code>, after you
        trust the folder.
      </p>
      {error && <p className="settings-error" role="alert">{error}</p>}
      {!deps.agents || (agents && agents.length === 0) ? (
        <p className="empty">No agents in this session. Open a folder to see the agents it can use.</p>
      ) : agents === null ? (
        <p className="settings-note">Reading the agents…</p>
      ) : (
        <ul className="settings-agents" aria-label="Agents">
          {agents.map((a) => (
            <li key={a.name}>
              <strong>{a.name}</strong> <span className="settings-muted">{a.source === "built-in" ? "built in" : <code>{a.source}</code>}</span>
              <div>{a.description}</div>
            </li>
          ))}
        </ul>
      )}
      <p className="settings-note">Settings for agents and your own commands will come here.</p>
    </div>
  );
}
