import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend, giveLayout } from "../test/fakeBackend";

beforeAll(giveLayout);
afterEach(cleanup);

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2, cachedTokens: 0 };
const list = (...s: [string, string][]) => ({ todos: s.map(([content, status]) => ({ content, status })) });

describe("TodoChecklist", () => {
  it("follows each todo_write live, skips a failed one, and folds to one line when the turn stops", async () => {
    const b = fakeBackend();
    render(<App backend={b} />);
    await screen.findByRole("textbox", { name: "Message" });
    await waitFor(() => expect(b.snapshot).toHaveBeenCalled());
    expect(screen.queryByRole("region", { name: "Todo list" })).toBeNull();
    act(() => {
      b.emit("turn.started", { prompt: "three steps" });
      b.emit("tool.started", { callId: "c1", tool: "todo_write", args: list(["one", "in_progress"], ["two", "pending"], ["three", "pending"]) });
    });
    const box = screen.getByRole("region", { name: "Todo list" });
    expect(within(box).getByRole("button").textContent).toContain("0 of 3 done");
    expect(within(box).getByRole("listitem", { name: "one: in progress" })).toBeTruthy();
    act(() => {
      b.emit("tool.finished", { callId: "c1", tool: "todo_write", result: { ok: true }, isError: false, durationMs: 1 });
      b.emit("tool.started", { callId: "c2", tool: "todo_write", args: list(["one", "done"], ["two", "in_progress"], ["three", "pending"]) });
    });
    expect(within(box).getByRole("listitem", { name: "one: done" })).toBeTruthy();
    act(() => {
      b.emit("tool.finished", { callId: "c2", tool: "todo_write", result: { ok: true }, isError: false, durationMs: 1 });
      b.emit("tool.started", { callId: "c3", tool: "todo_write", args: { todos: "broken" } });
      b.emit("tool.finished", { callId: "c3", tool: "todo_write", result: { ok: false }, isError: true, durationMs: 1 });
      b.emit("turn.stopped", { reason: "completed", usage });
    });
    const summary = within(box).getByRole("button");
    expect(summary.textContent).toContain("1 of 3 done");
    expect(summary.getAttribute("aria-expanded")).toBe("false");
    expect(within(box).queryByRole("listitem")).toBeNull();
    fireEvent.click(summary);
    expect(within(box).getAllByRole("listitem")).toHaveLength(3);
  });
});
