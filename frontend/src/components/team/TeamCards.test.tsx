import { afterEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import type { TranscriptItem } from "../../bridge";
import { ToolCard } from "../ToolCard";
import { Transcript } from "../Transcript";
import { giveLayout } from "../../test/fakeBackend";
import { toolSummary, toolTarget } from "../toolSummary";
import { TeamPanel } from "./TeamPanel";

afterEach(cleanup);

const call = (tool: string, args: unknown, more: Partial<TranscriptItem> = {}): TranscriptItem =>
  ({ kind: "tool", id: `c-${tool}`, turnId: "t", tool, args, result: {}, durationMs: 3, ...more });

describe("team calls in a transcript", () => {
  it("show a message as a compact card, from the lead in the chat: from → to and the text", () => {
    render(<ToolCard item={call("team_message", { to: "reviewer", text: "please review main.go" })} />);
    const card = screen.getByRole("group", { name: "Message from lead to reviewer, sent" });
    expect(card.textContent).toBe("✉ lead → reviewerplease review main.go");
    expect(within(card).queryByRole("button")).toBeNull(); // nothing to unfold: the text is the message
  });

  it("say when a message was not delivered, and why, without unfolding", () => {
    render(<ToolCard item={call("team_message", { to: "writer", text: "again?" }, { isError: true, result: "message cap reached: writer and reviewer sent 20 messages to each other" })} />);
    const card = screen.getByRole("group", { name: "Message from lead to writer, not delivered" });
    expect(card.textContent).toContain("message cap reached: writer and reviewer sent 20 messages to each other");
  });

  it("name the sender as the teammate inside its transcript in the Team panel", () => {
    const mate = { name: "writer", agent: "general", state: "idle" as const, task: "", callId: "spawn-writer", sessionId: "s-w", turns: 1, wakes: 1 };
    render(<TeamPanel team={{ enabled: true, maxTeammates: 4, teammates: [mate], board: [], messages: [], notices: [] }}
      transcripts={{ "spawn-writer": { sessionId: "s-w", agent: "writer", turnId: "", items: [call("team_message", { to: "lead", text: "done" })] } }}
      pending={[]} onAnswer={() => {}} />);
    fireEvent.click(screen.getByRole("button", { name: /^writer, general agent/ }));
    expect(screen.getByRole("group", { name: "Message from writer to lead, sent" })).toBeTruthy();
  });

  it("show a message between members in the lead's transcript as a compact card among the other items", () => {
    giveLayout();
    render(<Transcript queued={[]} empty={null} items={[
      { kind: "user", id: "t", turnId: "t", text: "split it" },
      { kind: "team_message", id: "m1", turnId: "", message: { id: "m1", from: "writer", to: "checker", text: "a.txt is shouted" } },
    ]} />);
    expect(screen.getByRole("group", { name: "Message from writer to checker, sent" }).textContent).toBe("✉ writer → checkera.txt is shouted");
  });

  it("tell a turn the team started for the lead as the team's, not as the user's message", () => {
    giveLayout();
    render(<Transcript queued={[]} empty={null} items={[
      { kind: "user", id: "t2", turnId: "t2", text: "[team] Your team has news for you (below). Act on it, or end your turn to wait for more." },
    ]} />);
    expect(screen.getByRole("note", { name: "The team woke the lead" }).textContent).toBe("✉ team → lead: Your team has news for you (below). Act on it, or end your turn to wait for more.");
    expect(screen.queryByRole("article", { name: "Your message" })).toBeNull();
  });

  it("read the other team tools' arguments as words on the card's line", () => {
    expect(toolTarget("team_spawn", { name: "reviewer", agent: "reviewer", task: "review the handler" })).toBe("reviewer (reviewer): review the handler");
    expect(toolTarget("team_task_update", { id: "2", status: "in_progress", owner: "writer" })).toBe("#2 → in progress, owner writer");
    expect(toolTarget("team_task_update", { id: "2", status: "done" })).toBe("#2 → done");
    expect(toolTarget("team_task_update", { id: "t1", title: "shout a.txt", status: "open" })).toBe("#t1 shout a.txt → open");
    expect(toolTarget("team_stop", { name: "writer" })).toBe("writer");
    expect(toolSummary("team_tasks", { tasks: [{}, {}] })).toBe("2 tasks");
    render(<ToolCard item={call("team_spawn", { name: "reviewer", agent: "reviewer", task: "review" })} />);
    expect(screen.getByRole("group", { name: "team_spawn reviewer (reviewer): review, done" })).toBeTruthy();
  });
});
