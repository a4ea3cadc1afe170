import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { Snapshot } from "../bridge";
import { App } from "../App";
import { fakeBackend, giveLayout } from "../test/fakeBackend";
import { SHORTCUTS } from "./shortcuts";

beforeAll(giveLayout);
afterEach(cleanup);

async function setup() {
  const b = fakeBackend();
  const sessions = {
    list: vi.fn(async () => []),
    create: vi.fn(async (): Promise<Snapshot> => ({ sessionId: "s2", turnId: "", transcript: [], pendingApprovals: [], processes: [], lastSeq: 0 })),
    resume: vi.fn(),
  };
  render(<App backend={b} sessions={sessions} />);
  const box = (await screen.findByRole("textbox", { name: "Message" })) as HTMLTextAreaElement;
  return { b, sessions, box };
}

const key = (k: string, opts: KeyboardEventInit = {}) => fireEvent.keyDown(document.activeElement ?? document.body, { key: k, ...opts });

describe("keyboard shortcuts", () => {
  it("do nothing while typing in a text field", async () => {
    const { sessions, box } = await setup();
    box.focus();
    key("n", { ctrlKey: true });
    key(",", { ctrlKey: true });
    key("F1");
    expect(sessions.create).not.toHaveBeenCalled();
    expect(screen.queryByRole("heading", { name: "Settings" })).toBeNull();
    expect(screen.queryByRole("dialog", { name: "Keyboard shortcuts" })).toBeNull();
  });

  it("Ctrl+L puts the cursor in the message box, Ctrl+N starts a session, Ctrl+, opens the settings", async () => {
    const { b, sessions, box } = await setup();
    (document.activeElement as HTMLElement | null)?.blur();
    key("l", { ctrlKey: true });
    expect(document.activeElement).toBe(box);
    box.blur();
    key("n", { ctrlKey: true });
    await waitFor(() => expect(sessions.create).toHaveBeenCalledTimes(1));
    // Not while a turn runs: switching would stop it.
    act(() => b.emit("turn.started", { prompt: "go" }, "t9"));
    key("n", { ctrlKey: true });
    expect(sessions.create).toHaveBeenCalledTimes(1);
    key(",", { ctrlKey: true });
    expect(await screen.findByRole("heading", { name: "Settings" })).toBeTruthy();
  });

  it("F1 lists every shortcut; Esc closes the list and gives focus back", async () => {
    await setup();
    const find = screen.getByRole("button", { name: "Find" });
    find.focus();
    key("F1");
    const help = screen.getByRole("dialog", { name: "Keyboard shortcuts" });
    for (const s of SHORTCUTS) expect(within(help).getAllByText(s.keys).length).toBeGreaterThan(0);
    for (const k of ["Ctrl+N", "Ctrl+,", "Ctrl+L", "F1", "Ctrl+F"]) expect(within(help).getByText(k)).toBeTruthy();
    // Other shortcuts wait while it is open.
    key("l", { ctrlKey: true });
    expect(document.activeElement).toBe(within(help).getByRole("button", { name: "Close" }));
    key("Escape");
    expect(screen.queryByRole("dialog", { name: "Keyboard shortcuts" })).toBeNull();
    expect(document.activeElement).toBe(find);
  });
});
