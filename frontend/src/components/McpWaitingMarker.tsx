import { memo } from "react";
import type { TranscriptItem } from "../bridge";

/** The words of an mcp_waiting item: which servers the turn ran without, and until when. */
export function mcpWaitingWords(servers: readonly string[]): string {
  const one = servers.length === 1;
  return `MCP ${one ? "server" : "servers"} ${servers.join(", ")} ${one ? "was" : "were"} still starting: this turn runs without ${one ? "its" : "their"} tools until ${one ? "it is" : "they are"} ready.`;
}

/**
 * Servers start after the first frame and never block the chat: a turn that
 * asks the model while some are still starting goes without their tools
 * (the next request after they are ready has them). The transcript says so.
 */
export const McpWaitingMarker = memo(function McpWaitingMarker({ item }: { item: TranscriptItem }) {
  const servers = item.servers ?? [];
  if (!servers.length) return null;
  return (
    <div className="turn-marker mcp-waiting" role="note" aria-label="MCP servers starting">
      <div className="turn-line">
        <span>⧗ {mcpWaitingWords(servers)}</span>
      </div>
    </div>
  );
});
