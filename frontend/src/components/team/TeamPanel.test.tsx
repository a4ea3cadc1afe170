import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { ApprovalRequestedPayload, ChildTranscript } from "../../bridge";
import { boardColumns, openDeps, teammateRows } from "../../team/model";
import type { TeamView } from "../../team/types";
import { TeamPanel } from "./TeamPanel";

afterEach(cleanup);

const team: TeamView = {
  teammates: [
    { name: "writer", agent: "general", state: "working", task: "write the handler" },
    { name: "reviewer", agent: "reviewer", state: "working" },
    { name: "tester", agent: "general", state: "idle" },
    { name: "old", agent: "general", state: "stopped", reason: "max steps" },
  ],
  tasks: [
    { id: "1", title: "write the handler", status: "in_progress", owner: "writer" },
    { id: "2", title: "review it", status: "open", owner: "reviewer", deps: ["1"] },
    { id: "3", title: "plan", status: "done", owner: "" },
  ],
  messages: [
    { from: "", to: "writer", text: "start with the handler" },
    { from: "writer", to: "reviewer", text: "ready for review" },
    { from: "tester", to: "*", text: "tests pass" },
  ],
};

const ask = (id: string, agent: string | undefined, tool: string): ApprovalRequestedPayload =>
  ({ approvalId: id, callId: `c-${id}`, tool, agent, preview: { kind: "args", summary: "" } }) as ApprovalRequestedPayload;

const transcripts: Record<string, ChildTranscript> = {
  writer: { sessionId: "s-w", agent: "writer", turnId: "t", items: [
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
    expect(within(board).getByRole("region", { name: "In progress, 1" }).textContent).toContain("owner writer");
    expect(within(board).getByRole("region", { name: "Done, 1" }).textContent).toContain("#3 plan");
  });

  it("shows the messages as a thread, from → to, the lead and everyone by name", () => {
    render(<TeamPanel team={team} transcripts={{}} pending={[]} onAnswer={() => {}} />);
    const thread = within(screen.getByRole("region", { name: "Team messages" })).getByRole("log");
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

  it("says what to do when there is no teammate yet", () => {
    render(<TeamPanel team={{ teammates: [], tasks: [], messages: [] }} transcripts={{}} pending={[]} onAnswer={() => {}} />);
    expect(screen.getByText("No teammates yet. The lead starts them with team_spawn.")).toBeTruthy();
    expect(screen.getByText("No tasks yet. Tasks the team adds show up here.")).toBeTruthy();
  });
});

describe("the team model", () => {
  it("keeps open, in progress and done columns always and adds other statuses after them", () => {
    expect(boardColumns([{ id: "1", title: "x", status: "cancelled" }]).map((c) => c.title)).toEqual(["Open", "In progress", "Done", "cancelled"]);
  });
  it("counts an unknown dependency as not done", () => {
    const all = [{ id: "1", title: "a", status: "done" }, { id: "2", title: "b", status: "open", deps: ["1", "9"] }];
    expect(openDeps(all[1], all)).toEqual(["9"]);
  });
  it("says waiting for you for a teammate that reports waiting though no dialog is here yet, never for a stopped one", () => {
    const rows = teammateRows([{ name: "a", agent: "g", state: "waiting" }, { name: "b", agent: "g", state: "stopped" }], [ask("x", "b", "bash")]);
    expect(rows.map((r) => r.shown)).toEqual(["waiting for you", "stopped"]);
  });
});
