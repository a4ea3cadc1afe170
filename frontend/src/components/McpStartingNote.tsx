import { useEffect, useRef, useState } from "react";
import type { McpBackend } from "../bridge/mcp";
import "./McpPanel.css";

/**
 * Servers start after the first frame and never block the chat: a turn that
 * starts while some are still starting runs without their tools until they
 * are ready (the next model request sees them). This says so for the running
 * turn, naming the servers, and goes away when the turn ends.
 */
export function useMcpStartingNote(mcp: McpBackend | undefined, turnId: string) {
  const starting = useRef<string[]>([]);
  const [note, setNote] = useState<{ turnId: string; names: string[] } | null>(null);
  useEffect(() => {
    if (!mcp) return;
    let live = true;
    const take = (servers: { name: string; state: string }[] | null) => {
      starting.current = (servers ?? []).filter((s) => s.state === "starting").map((s) => s.name);
    };
    mcp.list().then((p) => live && take(p.servers), () => {});
    const off = mcp.subscribe((p) => take(p.servers));
    return () => {
      live = false;
      off();
    };
  }, [mcp]);
  useEffect(() => {
    if (!turnId) return setNote(null);
    setNote((n) => (n?.turnId === turnId ? n : starting.current.length ? { turnId, names: starting.current } : null));
  }, [turnId]);
  if (!note) return null;
  const names = note.names.join(", ");
  return (
    <p className="mcp-starting-note" role="note" aria-label="MCP servers starting">
      This turn started while MCP {note.names.length === 1 ? "server" : "servers"} {names} {note.names.length === 1 ? "was" : "were"} still starting: it runs without {note.names.length === 1 ? "its" : "their"} tools until {note.names.length === 1 ? "it is" : "they are"} ready.
    </p>
  );
}
