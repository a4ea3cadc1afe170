import { useCallback, useEffect, useState } from "react";
import type { AgentsTrustBackend, PendingAgentFile, PendingAgents } from "../bridge/agents";
import "./McpPanel.css";

function toolsText(d: NonNullable<PendingAgentFile["definition"]>): string {
  const tools = [...(d.readOnly ? ["read-only tools"] : []), ...(d.tools ?? [])];
  return tools.length ? tools.join(", ") : "every tool this session has";
}

/**
 * The prompt for the workspace's agent definitions (.gatehouse/agents/*.md)
 * while the folder is not trusted for them, or they changed since: each
 * file with its agent's name, description and tools, and Trust / Not now.
 * It asks again when refresh (a new session, the end of a turn) or the
 * window's focus finds other content.
 */
export function AgentsTrust({ backend, refresh, onTrusted }: { backend: AgentsTrustBackend; refresh?: unknown; onTrusted?: () => void }) {
  const [pending, setPending] = useState<PendingAgents | null>(null);
  const [dismissed, setDismissed] = useState("");
  const [error, setError] = useState("");
  const check = useCallback(() => {
    backend.pending().then(
      (p) => setPending(p && p.files?.length ? p : null),
      () => setPending(null),
    );
  }, [backend]);
  useEffect(check, [check, refresh]);
  useEffect(() => {
    window.addEventListener("focus", check);
    return () => window.removeEventListener("focus", check);
  }, [check]);
  // Only refused files (links, FIFOs): nothing to trust, the reasons to see.
  const refusedOnly = !!pending && !pending.hash;
  const key = pending ? pending.hash || `refused:${(pending.files ?? []).map((f) => f.path).join(",")}` : "";
  if (!pending || key === dismissed) return null;
  const trust = () => {
    setError("");
    backend.trust(pending.hash).then(
      () => {
        setPending(null);
        onTrusted?.();
      },
      (e) => {
        setError(String(e));
        check();
      },
    );
  };
  return (
    <section className="mcp-trust agents-trust" role="alert" aria-label="Workspace agents waiting for trust">
      <p>This folder's <code>.gatehouse/agents/</code> defines agents the model could hand work to:</p>
      <ul>
        {(pending.files ?? []).map((f) => (
          <li key={f.path} aria-label={`Agent file ${f.path}`}>
            <code>{f.path}</code>
            {f.definition ? (
              <>
                {" "}— <strong>{f.definition.name}</strong>: {f.definition.description}
                <br />
                Tools: {toolsText(f.definition)}
                {f.definition.model && <> · model {f.definition.model}</>}
              </>
            ) : (
              <> — {f.error}</>
            )}
          </li>
        ))}
      </ul>
      {refusedOnly ? (
        <p>These files are never loaded: an agent definition must be a regular file in the folder, not a link.</p>
      ) : (
        <p>Their instructions steer what the model does with your files. Trust them only if you trust this folder. Files marked refused never load.</p>
      )}
      {error && <p className="mcp-error" role="alert">{error}</p>}
      <div className="mcp-buttons">
        <button type="button" onClick={() => setDismissed(key)}>{refusedOnly ? "Dismiss" : "Not now"}</button>
        {!refusedOnly && <button type="button" className="primary" onClick={trust}>Trust</button>}
      </div>
    </section>
  );
}
