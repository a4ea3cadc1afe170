import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { App } from "../App";
import type { ApprovalRequestedPayload } from "../bridge";
import type { TabInfo, TabsBackend } from "../bridge/tabs";
import { fakeBackend } from "../test/fakeBackend";

afterEach(cleanup);

const tab = (over: Partial<TabInfo>): TabInfo => ({ id: "s1", name: "app", workspace: "/w/app", title: "", current: false, running: false, waiting: 0, ...over }) as TabInfo;

const request = (id: string): ApprovalRequestedPayload => ({
  approvalId: id, callId: "c" + id, tool: "write_file",
  preview: { kind: "files", summary: "write_file: b.txt", files: [] },
}) as unknown as ApprovalRequestedPayload;

function tabsBackend(list: TabInfo[]) {
  let tabs = list;
  const api = {
    list: vi.fn(async () => tabs),
    create: vi.fn(async () => ({ sessionId: "s3", turnId: "", transcript: [], pendingApprovals: [], processes: [], lastSeq: 0 })),
    show: vi.fn(async (id: string) => {
      tabs = tabs.map((t) => ({ ...t, current: t.id === id }) as TabInfo);
      return { sessionId: id, turnId: "", transcript: [], pendingApprovals: [], processes: [], lastSeq: 0 };
    }),
    close: vi.fn(async () => {}),
  } satisfies TabsBackend;
  return { api, set: (l: TabInfo[]) => (tabs = l) };
}

const approvals = () => ({
  resolve: vi.fn(async () => {}), repreview: vi.fn(async () => {}), listRules: vi.fn(async () => []),
  revokeRule: vi.fn(async () => {}),
});

describe("session tabs", () => {
  it("badges a background tab's waiting approval, keeps its events out of the chat, and shows its dialog from its tab", async () => {
    const b = fakeBackend({ workspace: "/w/app", workspaceName: "app" }, { sessionId: "s1" });
    const t = tabsBackend([tab({ id: "s1", current: true, running: true }), tab({ id: "s2", name: "feat", workspace: "/w/app.worktrees/feat", title: "task feat", running: true })]);
    render(<App backend={b} approvals={approvals()} tabs={t.api} />);
    await screen.findByRole("tablist", { name: "Open sessions" });
    expect(screen.getByRole("tab", { selected: true }).getAttribute("aria-label")).toBe("Session app, running");

    // A request of the background session: its tab says so; no dialog here.
    t.set([tab({ id: "s1", current: true }), tab({ id: "s2", name: "feat", title: "task feat", running: true, waiting: 1 })]);
    b.emit("turn.started", { prompt: "task feat" }, "t9", "s2");
    b.emit("approval.requested", request("approval-s2-1"), "t9", "s2");
    const feat = await screen.findByRole("tab", { name: "Session feat, task feat, 1 waiting for you" });
    expect(feat.textContent).toContain("1 waiting");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(screen.queryByRole("article", { name: "Your message" })).toBeNull(); // the background turn is not folded here

    b.snapshot.mockResolvedValueOnce({ sessionId: "s2", turnId: "t9", transcript: [], pendingApprovals: [request("approval-s2-1")], processes: [], lastSeq: 2 });
    fireEvent.click(feat);
    await waitFor(() => expect(t.api.show).toHaveBeenCalledWith("s2"));
    const dialog = await screen.findByRole("dialog");
    expect(dialog.textContent).toContain("in session feat");
  });

  it("badges a background tab's question (ask_user) at once, as an approval", async () => {
    const b = fakeBackend({ workspace: "/w/app", workspaceName: "app" }, { sessionId: "s1" });
    const t = tabsBackend([tab({ id: "s1", current: true }), tab({ id: "s2", name: "feat", title: "task feat", running: true })]);
    render(<App backend={b} approvals={approvals()} tabs={t.api} />);
    await screen.findByRole("tab", { name: "Session feat, task feat, running" });
    t.set([tab({ id: "s1", current: true }), tab({ id: "s2", name: "feat", title: "task feat", running: true, waiting: 1 })]);
    b.emit("tool.started", { callId: "q1", tool: "ask_user", args: { question: "Which port?" } }, "t9", "s2");
    // Well before the list is polled again.
    await screen.findByRole("tab", { name: "Session feat, task feat, 1 waiting for you" }, { timeout: 600 });
    t.set([tab({ id: "s1", current: true }), tab({ id: "s2", name: "feat", title: "task feat", running: true })]);
    b.emit("tool.finished", { callId: "q1", tool: "ask_user", result: "{}" }, "t9", "s2");
    await screen.findByRole("tab", { name: "Session feat, task feat, running" }, { timeout: 600 });
  });

  it("says when the shown tab's folder is gone, and when another session shares it", async () => {
    const b = fakeBackend({ workspace: "/w/app", workspaceName: "app" });
    const t = tabsBackend([tab({ id: "s1", current: true, gone: "The folder /w/app is gone: nothing is written anywhere else." }), tab({ id: "s2" })]);
    render(<App backend={b} tabs={t.api} />);
    expect((await screen.findByRole("alert")).textContent).toContain("is gone: nothing is written anywhere else");
    expect(screen.getByRole("tab", { selected: true }).getAttribute("aria-label")).toBe("Session app, folder gone");
    cleanup();

    const shared = tabsBackend([tab({ id: "s1", current: true, sharedWith: ["app 2"] }), tab({ id: "s2", name: "app 2", sharedWith: ["app"] })]);
    render(<App backend={fakeBackend({ workspace: "/w/app", workspaceName: "app" })} tabs={shared.api} />);
    expect((await screen.findByRole("note", { name: "Shared folder" })).textContent).toContain("Session app 2 also works in this folder");
  });

  it("shows no tab bar for one session", async () => {
    const t = tabsBackend([tab({ id: "s1", current: true })]);
    render(<App backend={fakeBackend({ workspace: "/w/app", workspaceName: "app" })} tabs={t.api} />);
    await waitFor(() => expect(t.api.list).toHaveBeenCalled());
    expect(screen.queryByRole("tablist", { name: "Open sessions" })).toBeNull();
  });
});
