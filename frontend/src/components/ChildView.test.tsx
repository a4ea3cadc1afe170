import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ChildTranscript, GatehouseEvent, TranscriptItem } from "../bridge";
import { emptyTranscript, fold } from "../transcript/fold";
import { dialogTitle } from "../approval/decision";
import { AgentSourcesContext, AgentsStrip, backgroundAgents, ChildrenContext } from "./ChildView";
import { ToolCard } from "./ToolCard";

afterEach(cleanup);

const ev = (seq: number, sessionId: string, type: GatehouseEvent["type"], payload: unknown, parentCallId?: string, agent?: string) =>
  ({ seq, sessionId, turnId: "t1", type, payload, parentCallId, agent }) as GatehouseEvent;

describe("child events", () => {
  it("fold under the call that started them, never into the parent's items, and a stranger's are ignored", () => {
    let t = emptyTranscript;
    const steps = [
      ev(1, "p", "turn.started", { prompt: "go" }),
      ev(2, "p", "tool.started", { callId: "c1", tool: "delegate_explore", args: { task: "look" } }),
      ev(3, "k", "turn.started", { prompt: "look" }, "c1", "explore"),
      ev(4, "k", "tool.started", { callId: "k1", tool: "read_file", args: { path: "a.txt" } }, "c1", "explore"),
      ev(5, "k", "message.delta", { messageId: "m1", text: "a says" }, "c1", "explore"),
      ev(6, "x", "turn.started", { prompt: "not ours" }, "zz", "stranger"),
    ];
    for (const e of steps) t = fold(t, e);
    expect(t.sessionId).toBe("p");
    expect(t.items.map((i) => i.kind)).toEqual(["user", "tool"]);
    expect(t.lastSeq).toBe(6);
    const c = t.children.c1;
    expect(c.agent).toBe("explore");
    expect(c.items!.map((i) => `${i.kind}:${i.tool ?? i.text}`)).toEqual(["user:look", "tool:read_file", "assistant:a says"]);
    expect(t.children.zz).toBeUndefined();
  });
});

describe("a delegate call's card", () => {
  const call: TranscriptItem = { kind: "tool", id: "c1", turnId: "t1", tool: "delegate_explore", args: { task: "look" }, running: true };
  const child: ChildTranscript = {
    sessionId: "k", agent: "explore", turnId: "t1",
    items: [
      { kind: "user", id: "u", turnId: "t1", text: "look" },
      { kind: "tool", id: "k1", turnId: "t1", tool: "read_file", args: { path: "a.txt" }, running: false, result: { path: "a.txt", content: "x", startLine: 1, endLine: 1, totalLines: 1, truncated: false } },
      { kind: "tool", id: "k2", turnId: "t1", tool: "read_file", args: { path: "b.txt" }, running: true },
    ],
  };

  it("shows the child's transcript nested, with its agent, steps and state, and collapses", () => {
    render(
      <ChildrenContext.Provider value={{ c1: child }}>
        <ToolCard item={call} />
      </ChildrenContext.Provider>,
    );
    const view = screen.getByRole("group", { name: "explore agent, 2 tool calls, running" });
    expect(view).toBeTruthy();
    expect(screen.getByRole("group", { name: "read_file a.txt, done" })).toBeTruthy();
    expect(screen.getByRole("group", { name: "read_file b.txt, running" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: /^explore/ }));
    expect(screen.queryByRole("group", { name: "read_file a.txt, done" })).toBeNull();
  });

  it("says which file a user's agent came from", () => {
    render(
      <AgentSourcesContext.Provider value={{ explore: "cfg/agents/explore.md" }}>
        <ChildrenContext.Provider value={{ c1: child }}>
          <ToolCard item={call} />
        </ChildrenContext.Provider>
      </AgentSourcesContext.Provider>,
    );
    expect(screen.getByTitle("defined in cfg/agents/explore.md").textContent).toBe("explore.md");
  });

  it("says the stop reason and tokens once the child ended", () => {
    const ended = { ...child, items: [...child.items!.slice(0, 2), { kind: "stop", turnId: "t1", reason: "blocked_by_approval", usage: { promptTokens: 100, completionTokens: 20, totalTokens: 120, cachedTokens: 0 } }] } as ChildTranscript;
    render(
      <ChildrenContext.Provider value={{ c1: ended }}>
        <ToolCard item={{ ...call, running: false }} />
      </ChildrenContext.Provider>,
    );
    const line = screen.getByRole("button", { name: /^explore/ });
    expect(line.textContent).toContain("1 tool call · 120 tokens");
    expect(line.textContent).toContain("blocked by approval");
  });
});

describe("the agents strip", () => {
  it("lists running background agents from subagent_start results and stops one", async () => {
    const items: TranscriptItem[] = [
      { kind: "tool", id: "s1", turnId: "t1", tool: "subagent_start", args: {}, running: false, result: { id: "agent-1", agent: "bg", status: "running" } },
      { kind: "tool", id: "s2", turnId: "t1", tool: "subagent_start", args: {}, running: false, result: { id: "agent-2", agent: "done", status: "running" } },
    ];
    const children = { s2: { sessionId: "x", agent: "done", turnId: "", items: [{ kind: "stop", turnId: "t", reason: "completed" }] } as ChildTranscript };
    const agents = backgroundAgents(items, children);
    expect(agents).toEqual([{ id: "agent-1", agent: "bg", running: true }, { id: "agent-2", agent: "done", running: false }]);
    const stop = vi.fn(async () => {});
    render(<AgentsStrip agents={agents} onStop={stop} />);
    fireEvent.click(screen.getByRole("button", { name: "Stop bg agent-1" }));
    expect(stop).toHaveBeenCalledWith("agent-1");
    expect(screen.queryByText("done")).toBeNull();
  });
});

describe("the approval dialog's title", () => {
  it("names the agent that asks", () => {
    const r = { approvalId: "a", callId: "k", tool: "apply_patch", agent: "general", preview: { kind: "files", summary: "", files: [{ operation: "update", path: "a.txt" }] } };
    expect(dialogTitle(r as never)).toMatch(/^general › apply_patch wants to /);
    expect(dialogTitle({ ...r, agent: undefined } as never)).toMatch(/^apply_patch wants to /);
  });
});
