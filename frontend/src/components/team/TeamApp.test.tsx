import { afterEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../../App";
import { fakeBackend, giveLayout } from "../../test/fakeBackend";
import type { ApprovalRequestedPayload, Teammate } from "../../bridge";

afterEach(cleanup);

const mate = (name: string, agent: string): Teammate =>
  ({ name, agent, state: "working", task: `${name}'s part`, callId: `spawn-${name}`, sessionId: `s-${name}`, turns: 1, wakes: 0 });
const ask = (id: string, agent: string, tool: string): ApprovalRequestedPayload =>
  ({ approvalId: id, callId: `c-${id}`, tool, agent, preview: { kind: "args", summary: "", args: {} } }) as ApprovalRequestedPayload;

describe("the window with a team", () => {
  it("has no Team panel until the session turns teams on, then shows it open with both teammates", async () => {
    giveLayout();
    const b = fakeBackend({}, { sessionId: "s1" });
    const approvals = { resolve: vi.fn(async () => {}), repreview: vi.fn(async () => {}), listRules: vi.fn(async () => []), revokeRule: vi.fn(async () => {}) };
    render(<App backend={b} approvals={approvals} />);
    await screen.findByRole("button", { name: /Workspace proj/ });
    expect(screen.queryByRole("complementary", { name: "Team" })).toBeNull();
    act(() => b.emit("team.enabled", { enabled: true, maxTeammates: 4, teammates: [mate("writer", "general"), mate("reviewer", "reviewer")], board: [], messages: [], notices: [] }, ""));
    const panel = await screen.findByRole("complementary", { name: "Team" });
    expect(within(panel).getByRole("button", { name: "Team" }).getAttribute("aria-expanded")).toBe("true");
    expect(within(panel).getAllByRole("button", { name: /Show its transcript/ })).toHaveLength(2);

    // Two teammates ask: no dialog opens on its own; each waits in the panel, one click away, and the dialog names the other.
    act(() => {
      b.emit("approval.requested", ask("a1", "writer", "bash"));
      b.emit("approval.requested", ask("a2", "reviewer", "apply_patch"));
    });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(within(panel).getByRole("button", { name: /^writer, general agent, waiting for you/ })).toBeTruthy();
    expect(within(panel).getByRole("button", { name: /^reviewer, reviewer agent, waiting for you/ })).toBeTruthy();
    act(() => fireEvent.click(within(panel).getByRole("button", { name: "Answer reviewer › apply_patch" })));
    const dialog = screen.getByRole("dialog");
    expect(within(dialog).getByRole("heading", { level: 2 }).textContent).toBe("reviewer › apply_patch wants to run with these arguments");
    expect(dialog.querySelector(".approval-others")?.textContent).toBe("Also waiting: writer › bash");
    fireEvent.click(within(dialog).getByRole("button", { name: "Approve once" }));
    expect(approvals.resolve).toHaveBeenCalledWith("a2", { kind: "once" });
    act(() => b.emit("approval.resolved", { approvalId: "a2", decision: { kind: "once" } }));
    expect(screen.queryByRole("dialog")).toBeNull(); // writer's still waits in the panel

    // A server's question is not held back by a teammate's request waiting in the panel.
    act(() => b.emit("question.asked", { questionId: "q1", callId: "c1", server: "tickets", workspace: false, message: "Which ticket?",
      fields: [{ name: "id", title: "Ticket", type: "integer", required: true }] }));
    expect(screen.getByRole("dialog", { name: /MCP server tickets .*asks/ })).toBeTruthy();
    act(() => b.emit("question.resolved", { questionId: "q1" }));

    // The lead's own request opens at once, as always.
    act(() => b.emit("approval.requested", ask("a3", "", "write_file")));
    expect(within(screen.getByRole("dialog")).getByRole("heading", { level: 2 }).textContent).toBe("write_file wants to run with these arguments");
  });

  it("turns teams on with /experimental teams from the composer's / menu, and says why for an experiment it does not know", async () => {
    giveLayout();
    const b = fakeBackend({}, { sessionId: "s1" });
    b.commands.mockResolvedValue([{ name: "experimental", description: "Turn on an experimental feature for this session: /experimental teams (agent teams)", origin: "built-in", source: "built-in" }]);
    render(<App backend={b} />);
    const box = (await screen.findByRole("textbox", { name: "Message" })) as HTMLTextAreaElement;
    fireEvent.input(box, { target: { value: "/" } });
    const menu = await screen.findByRole("listbox", { name: "Commands" });
    await waitFor(() => expect(within(menu).getByRole("option").textContent).toContain("/experimental"));

    fireEvent.input(box, { target: { value: "/experimental nonsense" } });
    fireEvent.keyDown(box, { key: "Enter" });
    expect((await screen.findByRole("alert")).textContent).toContain('No experiment "nonsense": try /experimental teams');
    expect(b.teamsEnable).not.toHaveBeenCalled();
    expect(box.value).toBe("/experimental nonsense");

    b.snapshot.mockResolvedValue({ sessionId: "s1", turnId: "", transcript: [], pendingApprovals: [], processes: [], lastSeq: 0,
      team: { enabled: true, maxTeammates: 4, teammates: [], board: [], messages: [], notices: [] } });
    fireEvent.input(box, { target: { value: "/experimental teams" } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(b.teamsEnable).toHaveBeenCalledTimes(1));
    expect(b.submit).not.toHaveBeenCalled();
    const panel = await screen.findByRole("complementary", { name: "Team" });
    expect(within(panel).getByText("No teammates yet. The lead starts them with team_spawn.")).toBeTruthy();
  });
});
