import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../App";
import type { Snapshot, TranscriptItem } from "../bridge";
import type { SessionInfo, SessionsBackend } from "../bridge/sessions";
import { fakeBackend, giveLayout } from "../test/fakeBackend";
import { formatWhen } from "./SessionsMenu";

beforeAll(giveLayout);
afterEach(cleanup);

const now = Date.now();
const past: SessionInfo[] = [
  { id: "s1", title: "add a health endpoint", createdMs: now - 3_600_000, updatedMs: now - 120_000, turns: 3, current: true },
  { id: "s0", title: "read the README", createdMs: now - 2 * 86_400_000, updatedMs: now - 2 * 86_400_000, turns: 1, current: false },
];

const oldTranscript: TranscriptItem[] = [
  { kind: "user", id: "s0-t1", turnId: "s0-t1", text: "read the README" },
  { kind: "assistant", id: "m1", turnId: "s0-t1", text: "It explains the build." },
  { kind: "stop", turnId: "s0-t1", reason: "completed", usage: { promptTokens: 10, completionTokens: 4, totalTokens: 14, cachedTokens: 0 },
    context: { tokens: 51_200, window: 128_000 } },
];

function snap(sessionId: string, transcript: TranscriptItem[] = [], lastSeq = 5): Snapshot {
  return { sessionId, turnId: "", transcript, pendingApprovals: [], processes: [], lastSeq };
}

function fakeSessions(list: SessionInfo[]) {
  return {
    list: vi.fn(async () => list),
    create: vi.fn(async () => snap("s2")),
    resume: vi.fn(async (id: string) => snap(id, oldTranscript)),
  } satisfies SessionsBackend;
}

async function setup(list: SessionInfo[], state = {}) {
  const b = fakeBackend(state);
  const sessions = fakeSessions(list);
  render(<App backend={b} sessions={sessions} />);
  const button = await screen.findByRole("button", { name: /Sessions/ });
  return { b, sessions, button };
}

describe("SessionsMenu", () => {
  it("lists the folder's sessions with title, when and turns, and resumes one", async () => {
    const { b, sessions, button } = await setup(past);
    fireEvent.click(button);
    const menu = await screen.findByRole("menu", { name: "Sessions" });
    // "New session" is there at once; the saved sessions arrive with the list.
    await waitFor(() => expect(within(menu).getAllByRole("menuitem")).toHaveLength(3));
    const items = within(menu).getAllByRole("menuitem");
    expect(items.map((i) => i.textContent)).toEqual([
      "+ New session",
      "add a health endpoint2 min ago · 3 turns · open",
      `read the README${formatWhen(past[1].updatedMs)} · 1 turn`,
    ]);
    expect(items[1].getAttribute("aria-current")).toBe("true");
    expect(document.activeElement).toBe(items[0]);

    // The backend's Snapshot() now returns the resumed session.
    b.snapshot.mockResolvedValue(snap("s0", oldTranscript, 7));
    fireEvent.click(items[2]);
    await waitFor(() => expect(sessions.resume).toHaveBeenCalledWith("s0"));
    await waitFor(() => expect(screen.queryByRole("menu")).toBeNull());
    expect(await screen.findByText("It explains the build.")).toBeTruthy();
    expect(screen.getByRole("article", { name: "Your message" }).textContent).toContain("read the README");
    expect(document.activeElement).toBe(button);
    // The gauge shows the resumed session's last request: 51,200 of 128,000.
    expect(screen.getByRole("meter", { name: "Context window" }).getAttribute("aria-valuenow")).toBe("40");

    // A late event of the closed session (s1; the fake's seq reaches the
    // snapshot's 7 first) is not drawn into the resumed one.
    act(() => {
      for (let i = 0; i < 7; i++) b.emit("fs.changed", { paths: [], kinds: [] }, "");
      b.emit("message.delta", { messageId: "x", text: "stray" }, "s1-t4");
    });
    expect(screen.queryByText("stray")).toBeNull();
    expect(screen.getByText("It explains the build.")).toBeTruthy();
  });

  it("starts a new session and shows the empty transcript", async () => {
    const { b, sessions, button } = await setup(past);
    b.snapshot.mockResolvedValue(snap("s0", oldTranscript, 7));
    fireEvent.click(button);
    fireEvent.click(await screen.findByRole("menuitem", { name: /read the README/ }));
    expect(await screen.findByText("It explains the build.")).toBeTruthy();

    b.snapshot.mockResolvedValue(snap("s2", [], 9));
    fireEvent.click(button);
    fireEvent.click(await screen.findByRole("menuitem", { name: "+ New session" }));
    await waitFor(() => expect(sessions.create).toHaveBeenCalled());
    await waitFor(() => expect(screen.queryByText("It explains the build.")).toBeNull());
  });

  it("says what to do when the folder has no sessions, or there is no folder", async () => {
    const { sessions, button } = await setup([]);
    fireEvent.click(button);
    expect(await screen.findByText("No saved sessions in this folder yet. Send a message to start one.")).toBeTruthy();
    fireEvent.keyDown(screen.getByRole("menu"), { key: "Escape" });
    expect(screen.queryByRole("menu")).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(sessions.list).toHaveBeenCalledTimes(1);
    cleanup();

    const none = await setup(past, { workspace: "", workspaceName: "" });
    fireEvent.click(none.button);
    expect(await screen.findByText("Choose a folder to see its sessions.")).toBeTruthy();
    expect(none.sessions.list).not.toHaveBeenCalled();
    expect(screen.getByRole("menuitem", { name: "+ New session" }).getAttribute("aria-disabled")).toBe("true");
  });

  it("shows a failed resume in the menu and keeps the open session", async () => {
    const { sessions, button } = await setup(past);
    sessions.resume.mockRejectedValueOnce(new Error("cannot resume the session: no such session"));
    fireEvent.click(button);
    fireEvent.click(await screen.findByRole("menuitem", { name: /read the README/ }));
    expect((await screen.findByRole("alert")).textContent).toContain("no such session");
    expect(screen.getByRole("menu")).toBeTruthy();
  });

  it("opened again, shows the sessions as they are now, never for a moment those of the last time", async () => {
    const { sessions, button } = await setup(past);
    fireEvent.click(button);
    const menu = await screen.findByRole("menu", { name: "Sessions" });
    await within(menu).findByRole("menuitem", { name: /read the README/ });
    fireEvent.keyDown(menu, { key: "Escape" });
    await waitFor(() => expect(screen.queryByRole("menu", { name: "Sessions" })).toBeNull());

    // The list is slow this time, and the session read before is gone.
    let answer!: (l: SessionInfo[]) => void;
    sessions.list.mockImplementation(() => new Promise((r) => (answer = r)));
    // Clicked as the user does, outside act: the menu's first frame, before its effects run.
    button.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    await Promise.resolve();
    await Promise.resolve();
    expect(screen.getByRole("menu", { name: "Sessions" }).textContent).not.toContain("read the README");
    const again = await screen.findByRole("menu", { name: "Sessions" });
    expect(within(again).queryByRole("menuitem", { name: /read the README/ })).toBeNull();
    expect(within(again).getByRole("status").textContent).toBe("Loading sessions…");
    await waitFor(() => expect(sessions.list).toHaveBeenCalledTimes(2));
    await act(async () => answer([past[0]]));
    await within(again).findByRole("menuitem", { name: /add a health endpoint/ });
    expect(within(again).queryByRole("menuitem", { name: /read the README/ })).toBeNull();
  });

  it("moves through the items with the arrow keys and warns that switching stops a running turn", async () => {
    const { b, button } = await setup(past);
    act(() => b.emit("turn.started", { prompt: "go" }, "s1-t4"));
    fireEvent.click(button);
    const menu = await screen.findByRole("menu");
    await waitFor(() => expect(within(menu).getAllByRole("menuitem")).toHaveLength(3));
    expect(within(menu).getByText("Switching stops the running turn.")).toBeTruthy();
    fireEvent.keyDown(menu, { key: "ArrowDown" });
    expect(document.activeElement).toBe(within(menu).getAllByRole("menuitem")[1]);
    fireEvent.keyDown(menu, { key: "ArrowUp" });
    fireEvent.keyDown(menu, { key: "ArrowUp" });
    expect(document.activeElement).toBe(within(menu).getAllByRole("menuitem")[2]);
  });
});

describe("formatWhen", () => {
  it("says how long ago in words", () => {
    const t = new Date(2026, 5, 15, 12, 0, 0).getTime();
    expect(formatWhen(t - 10_000, t)).toBe("just now");
    expect(formatWhen(t - 5 * 60_000, t)).toBe("5 min ago");
    expect(formatWhen(t - 3 * 3_600_000, t)).toBe("3 h ago");
    expect(formatWhen(t - 20 * 3_600_000, t)).toBe("yesterday");
    expect(formatWhen(new Date(2026, 2, 3).getTime(), t)).toBe("Mar 3");
    expect(formatWhen(new Date(2024, 2, 3).getTime(), t)).toBe("Mar 3, 2024");
  });
});
