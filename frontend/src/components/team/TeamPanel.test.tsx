import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { ApprovalRequestedPayload, ChildTranscript, TeamState, TeamTask, Teammate } from "../../bridge";
import { boardColumns, openDeps, teammateRows } from "../../team/model";
import { TeamPanel } from "./TeamPanel";

afterEach(cleanup);

const mate = (name: string, agent: string, state: Teammate["state"], more: Partial<Teammate> = {}): Teammate =>
  ({ name, agent, state, task: "", callId: `spawn-${name}`, sessionId: `s-${name}`, turns: 1, wakes: 0, ...more });

const team: TeamState = {
  enabled: true, maxTeammates: 4, notices: [],
  teammates: [
    mate("writer", "general", "working", { task: "write the handler" }),
    mate("reviewer", "reviewer", "working"),
    mate("tester", "general", "idle"),
    mate("old", "general", "stopped", { reason: "max steps" }),
  ],
  board: [
    { id: "1", title: "write the handler", status: "in_progress", owner: "writer" },
    { id: "2", title: "review it", status: "open", owner: "reviewer", dependsOn: ["1"], notes: ["lead: after the handler"] },
    { id: "3", title: "plan", status: "done" },
  ],
  messages: [
    { id: "m1", from: "lead", to: "writer", text: "start with the handler" },
    { id: "m2", from: "writer", to: "reviewer", text: "ready for review" },
    { id: "m3", from: "tester", to: "all", text: "tests pass" },
  ],
};

const ask = (id: string, agent: string | undefined, tool: string): ApprovalRequestedPayload =>
  ({ approvalId: id, callId: `c-${id}`, tool, agent, preview: { kind: "args", summary: "" } }) as ApprovalRequestedPayload;

const transcripts: Record<string, ChildTranscript> = {
  "spawn-writer": { sessionId: "s-writer", agent: "writer", turnId: "t", items: [
    { kind: "user", id: "u", turnId: "t", text: "write the handler" },
    { kind: "tool", id: "k1", turnId: "t", tool: "read_file", args: { path: "main.go" }, result: { startLine: 1, endLine: 3 } },
    { kind: "assistant", id: "m", turnId: "t", text: "Done writing." },
  ] },
};

describe("the Team panel", () => {
  it("lists each teammate with its agent and its state in words, a teammate asking as waiting for you", () => {
    render(<TeamPanel team={team} transcripts={{}} pending={[ask("a1", "reviewer", "apply_patch"), ask("a0", undefined, "bash")]} onAnswer={() => {}} />);
    const roster = screen.getByRole("list", { name: "Teammates" });
    const names = within(roster).getAllByRole("button", { name: /Show its transcript/ }).map((b) => b.getAttribute("aria-label"));
    expect(names).toEqual([
      "writer, general agent, working: write the handler. Show its transcript",
      "reviewer, reviewer agent, waiting for you. Show its transcript",
      "tester, general agent, idle. Show its transcript",
      "old, general agent, stopped. Show its transcript",
    ]);
    expect(within(roster).getByText("stopped (max steps)")).toBeTruthy();
  });

  it("shows where a teammate in its own worktree works: its branch and folder, in its row and its name", () => {
    const wt = { ...team, teammates: [mate("writer", "general", "idle", { task: "write", worktree: "/src/proj.worktrees/team-writer", worktreeBranch: "gatehouse/team-writer" }),
      mate("tester", "general", "idle")] };
    render(<TeamPanel team={wt} transcripts={{}} pending={[]} onAnswer={() => {}} />);
    const roster = screen.getByRole("list", { name: "Teammates" });
    const names = within(roster).getAllByRole("button", { name: /Show its transcript/ }).map((b) => b.getAttribute("aria-label"));
    expect(names).toEqual([
      "writer, general agent, idle: write, in its worktree on gatehouse/team-writer at /src/proj.worktrees/team-writer. Show its transcript",
      "tester, general agent, idle. Show its transcript",
    ]);
    const row = within(roster).getByText("gatehouse/team-writer", { exact: false });
    expect(row.textContent).toBe("⎇ gatehouse/team-writer /src/proj.worktrees/team-writer");
    expect(row.getAttribute("title")).toBe("/src/proj.worktrees/team-writer");
    expect(within(roster).getAllByText(/worktree/).length).toBe(1);
  });

  it("opens a waiting teammate's dialog from its row, the oldest of its requests first", () => {
    const onAnswer = vi.fn();
    render(<TeamPanel team={team} transcripts={{}} pending={[ask("a1", "reviewer", "apply_patch"), ask("a2", "reviewer", "bash")]} onAnswer={onAnswer} />);
    const button = screen.getByRole("button", { name: "Answer reviewer › apply_patch" });
    expect(button.textContent).toBe("Answer apply_patch (+1)");
    fireEvent.click(button);
    expect(onAnswer).toHaveBeenCalledWith("a1");
    expect(screen.queryByRole("button", { name: /Answer writer/ })).toBeNull();
  });

  it("shows the board by status with owners and what a task waits on", () => {
    render(<TeamPanel team={team} transcripts={{}} pending={[]} onAnswer={() => {}} />);
    const board = screen.getByRole("region", { name: "Task board" });
    const open = within(board).getByRole("region", { name: "Open, 1" });
    expect(open.textContent).toContain("#2 review it");
    expect(open.textContent).toContain("owner reviewer · after #1 · waits on #1");
    expect(open.textContent).toContain("lead: after the handler");
    expect(within(board).getByRole("region", { name: "In progress, 1" }).textContent).toContain("owner writer");
    expect(within(board).getByRole("region", { name: "Done, 1" }).textContent).toContain("#3 plan");
    expect(within(board).getByRole("region", { name: "Done, 1" }).textContent).toContain("no owner");
  });

  it("shows the messages as a thread, from → to, the lead and everyone by name", () => {
    render(<TeamPanel team={team} transcripts={{}} pending={[]} onAnswer={() => {}} />);
    const thread = within(screen.getByRole("region", { name: "Team messages" })).getByRole("list");
    expect([...thread.querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      "lead → writerstart with the handler", "writer → reviewerready for review", "tester → alltests pass",
    ]);
  });

  it("shows a teammate's transcript with the chat's cards on click, and its messages; Back returns to the board", () => {
    render(<TeamPanel team={team} transcripts={transcripts} pending={[]} onAnswer={() => {}} />);
    fireEvent.click(screen.getByRole("button", { name: /^writer, general agent/ }));
    const view = screen.getByRole("region", { name: "writer transcript" });
    expect(within(view).getByRole("group", { name: "read_file main.go, done" })).toBeTruthy();
    expect(view.textContent).toContain("Done writing.");
    const mine = within(view).getByRole("region", { name: "Messages of writer" });
    expect(mine.querySelectorAll("li")).toHaveLength(3); // to it, from it, and to all
    expect(screen.queryByRole("region", { name: "Task board" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Back to the board" }));
    expect(screen.getByRole("region", { name: "Task board" })).toBeTruthy();
  });

  it("stops a teammate from its row and says so when that fails", async () => {
    const onStop = vi.fn(async (n: string) => { if (n === "tester") throw new Error("gone"); });
    render(<TeamPanel team={team} transcripts={{}} pending={[]} onAnswer={() => {}} onStop={onStop} />);
    expect(screen.queryByRole("button", { name: "Stop old" })).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "Stop tester" }));
    expect((await screen.findByRole("alert")).textContent).toBe("Could not stop tester: Error: gone");
  });

  it("shows the team's notices first: a cap reached, a mutual wait", () => {
    render(<TeamPanel team={{ ...team, notices: [{ kind: "mutual_wait", text: "writer and reviewer wait on each other", names: ["writer", "reviewer"] }] }}
      transcripts={{}} pending={[]} onAnswer={() => {}} />);
    expect(screen.getByRole("list", { name: "Team notices" }).textContent).toBe("⚠ writer and reviewer wait on each other");
  });

  it("says what to do when there is no teammate yet", () => {
    render(<TeamPanel team={{ enabled: true, maxTeammates: 4, teammates: null, board: null, messages: null, notices: null }} transcripts={{}} pending={[]} onAnswer={() => {}} />);
    expect(screen.getByText("No teammates yet. The lead starts them with team_spawn.")).toBeTruthy();
    expect(screen.getByText("No tasks yet. Tasks the team adds show up here.")).toBeTruthy();
  });
});

describe("the team model", () => {
  it("keeps open, in progress and done columns always and adds other statuses after them", () => {
    expect(boardColumns([{ id: "1", title: "x", status: "cancelled" as TeamTask["status"] }]).map((c) => c.title)).toEqual(["Open", "In progress", "Done", "cancelled"]);
  });
  it("counts an unknown dependency as not done", () => {
    const all: TeamTask[] = [{ id: "1", title: "a", status: "done" }, { id: "2", title: "b", status: "open", dependsOn: ["1", "9"] }];
    expect(openDeps(all[1], all)).toEqual(["9"]);
  });
  it("says waiting for you for a teammate that reports waiting though no dialog is here yet, never for a stopped one", () => {
    const rows = teammateRows([mate("a", "g", "waiting"), mate("b", "g", "stopped")], [ask("x", "b", "bash")]);
    expect(rows.map((r) => r.shown)).toEqual(["waiting for you", "stopped"]);
  });
  it("counts a teammate's subagent's request as the teammate's", () => {
    const rows = teammateRows([mate("a", "g", "working"), mate("ab", "g", "working")], [ask("x", "a › explore", "read_file")]);
    expect(rows.map((r) => r.waiting.map((w) => w.approvalId))).toEqual([["x"], []]);
  });
});
