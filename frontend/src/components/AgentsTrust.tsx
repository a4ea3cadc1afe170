import type { AgentsTrustBackend, PendingAgentFile } from "../bridge/agents";
import { TrustPrompt } from "./TrustPrompt";

function toolsText(d: NonNullable<PendingAgentFile["definition"]>): string {
  const tools = [...(d.readOnly ? ["read-only tools"] : []), ...(d.tools ?? [])];
  return tools.length ? tools.join(", ") : "every tool this session has";
}

/**
 * The prompt for the workspace's agent definitions (.gatehouse/agents/*.md)
 * while the folder is not trusted for them, or they changed since: each
 * file with its agent's name, description and tools.
 */
export function AgentsTrust({ backend, refresh, onTrusted }: { backend: AgentsTrustBackend; refresh?: unknown; onTrusted?: () => void }) {
  return (
    <TrustPrompt backend={backend} refresh={refresh} onTrusted={onTrusted}
      label="Workspace agents waiting for trust" fileLabel={(p) => `Agent file ${p}`}
      intro={<>This folder's <code>.gatehouse/agents/</code> defines agents the model could hand work to:</>}
      describe={(f: PendingAgentFile) => f.definition ? (
        <>
          {" "}— <strong>{f.definition.name}</strong>: {f.definition.description}
          <br />
          Tools: {toolsText(f.definition)}
          {f.definition.model && <> · model {f.definition.model}</>}
        </>
      ) : null}
      caution="Their instructions steer what the model does with your files. Trust them only if you trust this folder."
      refusedNote="These files are never loaded: an agent definition must be a regular file in the folder, not a link." />
  );
}
