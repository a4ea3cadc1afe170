import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend, giveLayout } from "../test/fakeBackend";

beforeAll(giveLayout);
afterEach(cleanup);

const usage = { promptTokens: 12, completionTokens: 3, totalTokens: 15, cachedTokens: 0 };
const compacted = {
  compactionId: "s1-compaction-1",
  summary: "## Goal\nAdd a **health** endpoint.",
  compaction: { keepFrom: "t2", replaced: 12, manual: true, tokensBefore: 27_000 },
  context: { tokens: 4_100, window: 32_768, estimated: true, windowSource: "server", compacted: true },
};

async function setup() {
  const b = fakeBackend();
  render(<App backend={b} />);
  const box = (await screen.findByRole("textbox", { name: "Message" })) as HTMLTextAreaElement;
  await waitFor(() => expect(b.snapshot).toHaveBeenCalled());
  act(() => {
    b.emit("turn.started", { prompt: "hello" });
    b.emit("turn.stopped", { reason: "completed", usage, context: { tokens: 27_000, window: 32_768, windowSource: "server" } });
  });
  return { b, box };
}

describe("Compaction", () => {
  it("/compact in the composer compacts instead of sending; the marker opens the summary", async () => {
    const { b, box } = await setup();
    fireEvent.input(box, { target: { value: "/compact" } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(b.compact).toHaveBeenCalledTimes(1));
    expect(b.submit).not.toHaveBeenCalled();
    act(() => b.emit("context.compacted", compacted, ""));
    const marker = screen.getByRole("note", { name: "Compaction" });
    expect(marker.textContent).toContain("you compacted the conversation; 12 earlier messages are sent as a summary (about 27,000 → 4,100 tokens)");
    expect(screen.getByRole("meter", { name: "Context window" }).getAttribute("aria-valuenow")).toBe("13");
    fireEvent.click(within(marker).getByRole("button", { name: "Show the summary" }));
    const summary = within(marker).getByRole("region", { name: "Checkpoint summary" });
    expect(within(summary).getByText("health").tagName).toBe("STRONG");
  });

  it("the Compact button compacts; the last compaction can be undone until the next turn", async () => {
    const { b } = await setup();
    fireEvent.click(screen.getByRole("button", { name: "Compact" }));
    await waitFor(() => expect(b.compact).toHaveBeenCalledTimes(1));
    act(() => b.emit("context.compacted", compacted, ""));
    fireEvent.click(screen.getByRole("button", { name: "Undo compaction" }));
    await waitFor(() => expect(b.undoCompact).toHaveBeenCalledTimes(1));
    act(() => b.emit("context.compaction_undone", { compactionId: compacted.compactionId, context: { tokens: 27_000, window: 32_768 } }, ""));
    const undone = screen.getByRole("note", { name: "Compaction, undone" });
    expect(undone.textContent).toContain("compaction undone");
    expect(screen.queryByRole("button", { name: "Undo compaction" })).toBeNull();

    act(() => b.emit("context.compacted", { ...compacted, compactionId: "s1-compaction-2" }, ""));
    expect(screen.getByRole("button", { name: "Undo compaction" })).toBeTruthy();
    act(() => b.emit("turn.started", { prompt: "next" }, "t2"));
    expect(screen.queryByRole("button", { name: "Undo compaction" })).toBeNull();
  });

  it("a compaction made during a turn can be undone once the turn has stopped", async () => {
    const { b } = await setup();
    act(() => {
      b.emit("turn.started", { prompt: "more" }, "t2");
      b.emit("context.compacted", { ...compacted, compaction: { ...compacted.compaction, manual: false } }, "t2");
    });
    expect(screen.getByRole("note", { name: "Compaction" }).textContent).toContain("the context filled up");
    expect(screen.queryByRole("button", { name: "Undo compaction" })).toBeNull();
    act(() => b.emit("turn.stopped", { reason: "completed", usage }, "t2"));
    expect(screen.getByRole("button", { name: "Undo compaction" })).toBeTruthy();
  });

  it("says why a compaction was refused", async () => {
    const { b, box } = await setup();
    b.compact.mockRejectedValueOnce(new Error("there is nothing to compact yet"));
    fireEvent.input(box, { target: { value: "/compact" } });
    fireEvent.keyDown(box, { key: "Enter" });
    expect((await screen.findByRole("alert")).textContent).toBe("there is nothing to compact yet");
  });
});
