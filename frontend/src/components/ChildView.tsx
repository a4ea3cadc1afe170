// A subagent's live transcript, nested under the delegate_<name> (or
// subagent_start) call that started it, and the strip of background agents.
import { createContext, useContext, useId, useState } from "react";
import type { ChildTranscript, TranscriptItem } from "../bridge";
import { Markdown } from "./Markdown";
import { ToolCard } from "./ToolCard";

/** The transcripts of the session's subagents, by the call that started each. */
export const ChildrenContext = createContext<Readonly<Record<string, ChildTranscript>>>({});

/** The file each agent's definition came from, by name ("built-in" for the built-ins). */
export const AgentSourcesContext = createContext<Readonly<Record<string, string>>>({});

/** Whether a call of tool starts a subagent. */
export function isAgentCall(tool: string): boolean {
  return tool.startsWith("delegate_") || tool === "subagent_start";
}

/** The child started by call id, if any has spoken yet. */
export function useChild(tool: string, id: string | undefined): ChildTranscript | undefined {
  const children = useContext(ChildrenContext);
  return isAgentCall(tool) && id ? children[id] : undefined;
}

/** How a child stands: its tool calls, tokens, and its stop reason (or running). */
export function childStatus(c: ChildTranscript): { steps: number; tokens: number; reason: string } {
  const items = c.items ?? [];
  const stop = [...items].reverse().find((it) => it.kind === "stop");
  return {
    steps: items.filter((it) => it.kind === "tool").length,
    tokens: stop?.usage?.totalTokens ?? 0,
    reason: stop?.reason ?? "running",
  };
}

/** One item of a child's transcript: its task, its replies, its tool calls as cards. */
export function ChildItem({ item }: { item: TranscriptItem }) {
  switch (item.kind) {
    case "user":
      return <div className="child-task"><span className="child-label">task</span> {item.text}</div>;
    case "assistant":
      if (!item.text && !item.streaming) return null;
      return (
        <div className="child-msg" aria-busy={item.streaming ? true : undefined}>
          <Markdown text={item.text ?? ""} />
        </div>
      );
    case "tool":
      return <ToolCard item={item} />;
    case "stop":
      return null;
  }
}

/** The nested transcript: a header with agent, steps, tokens and stop reason; collapsible. */
export function ChildView({ child }: { child: ChildTranscript }) {
  const [open, setOpen] = useState(true);
  const bodyId = useId();
  const { steps, tokens, reason } = childStatus(child);
  const label = `${child.agent} agent, ${steps} tool call${steps === 1 ? "" : "s"}, ${reason}`;
  // A grandchild is labelled "general › explore": its definition is the last name.
  const source = useContext(AgentSourcesContext)[child.agent.split(" › ").pop() ?? ""];
  return (
    <div className={`child-view child-${reason}`} role="group" aria-label={label}>
      <button className="child-line" aria-expanded={open} aria-controls={bodyId} onClick={() => setOpen(!open)}>
        <span className="tool-chevron" aria-hidden>{open ? "▾" : "▸"}</span>
        <span className="child-agent">{child.agent}</span>
        {source && source !== "built-in" && (
          <span className="child-source mono" title={`defined in ${source}`}>{source.split("/").pop()}</span>
        )}
        <span className="child-meta">
          {steps} tool call{steps === 1 ? "" : "s"}
          {tokens > 0 && ` · ${tokens.toLocaleString("en-US")} tokens`}
        </span>
        <span className="child-reason">{reason === "running" ? <span className="spinner" aria-hidden /> : reason.replaceAll("_", " ")}</span>
      </button>
      {open && (
        <div id={bodyId} className="child-items" role="log" aria-label={`${child.agent} transcript`}>
          {(child.items ?? []).map((it, i) => <ChildItem key={`${it.kind}:${it.id ?? i}`} item={it} />)}
        </div>
      )}
    </div>
  );
}

/** A background agent the strip lists: the call that started it, its id and agent. */
export interface BackgroundAgent {
  id: string;
  agent: string;
  running: boolean;
}

/** The background agents of a transcript: subagent_start calls whose result named an id. */
export function backgroundAgents(items: readonly TranscriptItem[], children: Readonly<Record<string, ChildTranscript>>): BackgroundAgent[] {
  const out: BackgroundAgent[] = [];
  for (const it of items) {
    if (it.kind !== "tool" || it.tool !== "subagent_start" || it.running || it.isError) continue;
    const res = (typeof it.result === "string" ? safeParse(it.result) : it.result) as { id?: string; agent?: string } | undefined;
    if (!res?.id) continue;
    const c = children[it.id ?? ""];
    out.push({ id: res.id, agent: res.agent ?? c?.agent ?? "agent", running: !c || childStatus(c).reason === "running" });
  }
  return out;
}

function safeParse(s: string): unknown {
  try {
    return JSON.parse(s);
  } catch {
    return undefined;
  }
}

/** The "agents" strip: background agents still running, each with a Stop button. */
export function AgentsStrip(props: { agents: readonly BackgroundAgent[]; onStop: (id: string) => Promise<void> }) {
  const [error, setError] = useState("");
  const running = props.agents.filter((a) => a.running);
  if (running.length === 0) return null;
  return (
    <div className="agents-strip" role="region" aria-label="Background agents">
      <span className="child-label">agents</span>
      {running.map((a) => (
        <span key={a.id} className="agents-strip-item">
          <span className="spinner" aria-hidden /> {a.agent} <span className="mono">{a.id}</span>
          <button type="button" onClick={() => props.onStop(a.id).catch((e) => setError(String(e)))} aria-label={`Stop ${a.agent} ${a.id}`}>
            Stop
          </button>
        </span>
      ))}
      {error && <span role="alert" className="agents-strip-error">{error}</span>}
    </div>
  );
}
