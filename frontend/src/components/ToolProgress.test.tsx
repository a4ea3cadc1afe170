import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend, giveLayout } from "../test/fakeBackend";

beforeAll(giveLayout);
afterEach(cleanup);

describe("tool progress", () => {
  it("shows a running MCP call's progress on its card, and drops it when the call ends", async () => {
    const b = fakeBackend();
    render(<App backend={b} />);
    await screen.findByRole("textbox", { name: "Message" });
    await waitFor(() => expect(b.snapshot).toHaveBeenCalled());
    act(() => {
      b.emit("turn.started", { prompt: "run it" });
      b.emit("tool.started", { callId: "l1", tool: "mcp__everything__trigger-long-running-operation", args: {} });
      b.emit("tool.progress", { callId: "l1", progress: 2, total: 5, message: "step two" });
    });
    expect(screen.getByRole("status", { name: "progress 2 of 5" }).textContent).toContain("step two");
    act(() => b.emit("tool.finished", { callId: "l1", tool: "mcp__everything__trigger-long-running-operation", result: { content: "done" }, isError: false, durationMs: 5 }));
    expect(screen.queryByRole("status", { name: /progress/ })).toBeNull();
  });
});
