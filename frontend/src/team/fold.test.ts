import { describe, expect, it } from "vitest";
import type { GatehouseEvent, Teammate } from "../bridge";
import { emptyTranscript, fold, fromSnapshot } from "../transcript/fold";

const ev = (seq: number, sessionId: string, type: GatehouseEvent["type"], payload: unknown, parentCallId?: string, agent?: string) =>
  ({ seq, sessionId, turnId: "t1", type, payload, parentCallId, agent, teammate: agent }) as GatehouseEvent;

const mate = (name: string, state: Teammate["state"]): Teammate =>
  ({ name, agent: "general", state, task: `${name}'s task`, callId: `spawn-${name}`, sessionId: `s-${name}`, turns: 0, wakes: 0 });

describe("team events", () => {
  it("fold into the session's team: teammates by name, the whole board, messages once each, notices", () => {
    let t = fromSnapshot({ sessionId: "lead", turnId: "", transcript: [], pendingApprovals: [], processes: [], lastSeq: 0 });
    expect(t.team).toBeUndefined();
    const steps = [
      ev(1, "lead", "team.enabled", { enabled: true, maxTeammates: 4, teammates: [], board: [], messages: [], notices: [] }),
      ev(2, "lead", "turn.started", { prompt: "split it" }),
      ev(3, "lead", "tool.started", { callId: "spawn-writer", tool: "team_spawn", args: { name: "writer", agent: "general", task: "write" } }),
      ev(4, "lead", "team.teammate", mate("writer", "idle")),
      ev(5, "s-writer", "turn.started", { prompt: "write" }, "spawn-writer", "writer"),
      ev(6, "lead", "team.teammate", mate("writer", "working")),
      ev(7, "lead", "team.teammate", mate("reviewer", "idle")),
      ev(8, "lead", "team.board", { tasks: [{ id: "1", title: "write", status: "open" }] }),
      ev(9, "lead", "team.board", { tasks: [{ id: "1", title: "write", status: "done", owner: "writer" }], taskId: "1", by: "writer" }),
      ev(10, "lead", "team.message", { id: "m1", from: "writer", to: "reviewer", text: "done" }),
      ev(11, "lead", "team.message", { id: "m1", from: "writer", to: "reviewer", text: "done" }),
      ev(12, "lead", "team.notice", { kind: "cap", text: "writer sent 20 messages: no more this turn", names: ["writer"] }),
      ev(13, "other", "team.message", { id: "x", from: "a", to: "b", text: "not ours" }),
    ];
    for (const e of steps) t = fold(t, e);
    expect(t.team?.teammates?.map((m) => `${m.name} ${m.state}`)).toEqual(["writer working", "reviewer idle"]);
    expect(t.team?.board).toEqual([{ id: "1", title: "write", status: "done", owner: "writer" }]);
    expect(t.team?.messages?.map((m) => m.id)).toEqual(["m1"]);
    expect(t.team?.notices?.map((n) => n.kind)).toEqual(["cap"]);
    // A teammate's own events are its transcript, under its team_spawn call.
    expect(t.children["spawn-writer"].items?.map((i) => i.text)).toEqual(["write"]);
    // writer's message to reviewer is told in the lead's transcript, once.
    expect(t.items.map((i) => i.kind)).toEqual(["user", "tool", "team_message"]);
    expect(t.items[2]).toEqual({ kind: "team_message", id: "m1", turnId: "t1", message: { id: "m1", from: "writer", to: "reviewer", text: "done" } });
    expect(t.lastSeq).toBe(13);
  });

  it("leave the lead's own message to its team_message card: no second item", () => {
    const t = fold({ ...emptyTranscript, sessionId: "lead" }, ev(1, "lead", "team.message", { id: "m1", from: "lead", to: "writer", text: "go" }));
    expect(t.items).toEqual([]);
    expect(t.team?.messages?.map((m) => m.id)).toEqual(["m1"]);
  });

  it("a change that arrives before team.enabled still shows, with teams on", () => {
    const t = fold({ ...emptyTranscript, sessionId: "lead" }, ev(1, "lead", "team.teammate", mate("writer", "idle")));
    expect(t.team?.enabled).toBe(true);
    expect(t.team?.teammates?.map((m) => m.name)).toEqual(["writer"]);
  });

  it("a new session starts without the old one's team", () => {
    let t = fold({ ...emptyTranscript, sessionId: "lead" }, ev(1, "lead", "team.enabled", { enabled: true, maxTeammates: 4, teammates: [mate("a", "idle")], board: [], messages: [], notices: [] }));
    t = fold(t, ev(2, "next", "turn.started", { prompt: "hi" }));
    expect(t.team).toBeUndefined();
  });
});
