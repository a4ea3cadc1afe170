import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { App } from "../App";
import type { TranscriptItem } from "../bridge";
import { fakeBackend, giveLayout } from "../test/fakeBackend";
import { ContextGauge, lastContextUse } from "./ContextGauge";

beforeAll(giveLayout);
afterEach(cleanup);

const usage = { promptTokens: 12, completionTokens: 3, totalTokens: 15, cachedTokens: 0 };
const meter = () => screen.getByRole("meter", { name: "Context window" });

describe("ContextGauge", () => {
  it("draws how full the window is: context ▓▓░░░░ 41%", () => {
    render(<ContextGauge use={{ tokens: 52_480, window: 128_000 }} />);
    expect(meter().textContent).toBe("context▓▓░░░░41%");
    expect(meter().getAttribute("aria-valuenow")).toBe("41");
    expect(meter().getAttribute("aria-valuetext")).toBe("41% (52,480 of 128,000 tokens)");
    expect(meter().className).toContain("context-ok");
  });

  it("warns from 75%, alarms from 90%, and never draws past full", () => {
    const { rerender } = render(<ContextGauge use={{ tokens: 100_000, window: 128_000 }} />);
    expect(meter().className).toContain("context-high");
    rerender(<ContextGauge use={{ tokens: 140_000, window: 128_000, trimmed: 3 }} />);
    expect(meter().className).toContain("context-full");
    expect(meter().textContent).toBe("context▓▓▓▓▓▓100%");
    expect(meter().title).toContain("3 older tool outputs were cleared to fit.");
  });

  it("marks an estimate and shows an empty gauge before the first request", () => {
    const { rerender } = render(<ContextGauge use={{ tokens: 6_400, window: 32_000, estimated: true }} />);
    expect(meter().textContent).toBe("context▓░░░░░~20%");
    expect(meter().getAttribute("aria-valuetext")).toContain("about 20%");
    rerender(<ContextGauge />);
    expect(meter().textContent).toBe("context░░░░░░–");
    expect(meter().getAttribute("aria-valuetext")).toBe("no request yet");
  });

  it("says what it knows before the first request: detecting, then the window's size and where it came from", () => {
    const { rerender } = render(<ContextGauge next="detecting" />);
    expect(meter().textContent).toBe("context░░░░░░detecting…");
    expect(meter().getAttribute("aria-valuetext")).toBe("no request yet; detecting the window");
    rerender(<ContextGauge next={{ tokens: 32_768, source: "server" }} />);
    expect(meter().textContent).toBe("context░░░░░░33K window");
    expect(meter().getAttribute("aria-valuetext")).toBe("no request yet; a window of 32,768 tokens");
    expect(meter().title).toBe("No request yet in this session. The model's context window is 32,768 tokens (as the model server reports it).");
  });

  it("says where the window came from and that older turns are summarized", () => {
    render(<ContextGauge use={{ tokens: 8_000, window: 32_768, windowSource: "server", compacted: true }} />);
    expect(meter().title).toBe("The last request used 8,000 of the model's 32,768 tokens (window as the model server reports it). Older turns are sent as a summary.");
    expect(meter().dataset.windowSource).toBe("server");
  });

  it("takes the latest turn that made a request, or a compaction since", () => {
    const items: TranscriptItem[] = [
      { kind: "stop", turnId: "t1", reason: "completed", context: { tokens: 10, window: 100 } },
      { kind: "user", id: "t2", turnId: "t2", text: "again" },
      { kind: "stop", turnId: "t2", reason: "cancelled" },
    ];
    expect(lastContextUse(items)).toEqual({ tokens: 10, window: 100 });
    expect(lastContextUse([])).toBeUndefined();
    const compacted: TranscriptItem = { kind: "compaction", id: "c1", turnId: "", text: "S", context: { tokens: 3, window: 100, compacted: true } };
    expect(lastContextUse([...items, compacted])).toEqual({ tokens: 3, window: 100, compacted: true });
  });

  it("follows the turns in the header and tells the user when old output was trimmed", async () => {
    const b = fakeBackend();
    render(<App backend={b} />);
    await screen.findByRole("textbox", { name: "Message" });
    await waitFor(() => expect(b.snapshot).toHaveBeenCalled());
    expect(meter().getAttribute("aria-valuenow")).toBe("0");
    act(() => {
      b.emit("turn.started", { prompt: "hello" });
      b.emit("turn.stopped", { reason: "completed", usage, context: { tokens: 115_000, window: 128_000, trimmed: 2 } });
    });
    expect(meter().getAttribute("aria-valuenow")).toBe("90");
    const marker = screen.getByRole("note", { name: "End of turn" });
    expect(marker.textContent).toContain("Older tool output was cleared to fit the model's context (2 results)");
  });

  it("words a context overflow and offers a new session", async () => {
    const b = fakeBackend();
    const sessions = { list: async () => [], create: async () => (await b.snapshot()), resume: async () => (await b.snapshot()) };
    let created = 0;
    render(<App backend={b} sessions={{ ...sessions, create: async () => (created++, sessions.create()) }} />);
    await screen.findByRole("textbox", { name: "Message" });
    await waitFor(() => expect(b.snapshot).toHaveBeenCalled());
    act(() => {
      b.emit("turn.started", { prompt: "hello" });
      b.emit("turn.stopped", { reason: "error", usage, errorKind: "context_overflow",
        error: "The conversation is too long for the model's context window." });
    });
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("The conversation is too long for the model's context window.");
    expect(alert.textContent).toContain("start a new session or ask for less");
    fireEvent.click(screen.getByRole("button", { name: "Start a new session" }));
    await waitFor(() => expect(created).toBe(1));
  });
});
