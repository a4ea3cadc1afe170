import { afterEach, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import type { TranscriptItem } from "../bridge";
import { App } from "../App";
import { fakeBackend, giveLayout } from "../test/fakeBackend";
import { findMatches } from "../transcript/search";

// jsdom has Ranges but not the CSS Custom Highlight API: a registry that
// keeps what the page registers, as the engine's would.
class FakeHighlight {
  ranges: Range[];
  constructor(...ranges: Range[]) {
    this.ranges = ranges;
  }
}
const registry = new Map<string, FakeHighlight>();
beforeAll(() => {
  giveLayout();
  Object.assign(globalThis, { Highlight: FakeHighlight });
  Object.assign(globalThis.CSS ?? Object.assign(globalThis, { CSS: {} }).CSS, { highlights: registry });
});
afterEach(cleanup);

const items: TranscriptItem[] = [
  { kind: "user", id: "t1", turnId: "t1", text: "why does the build fail?" },
  {
    kind: "tool", id: "c1", turnId: "t1", tool: "bash", args: { action: "exec", command: "make build" }, running: false, isError: false, durationMs: 5,
    result: { exitCode: 2, stdout: "compiling...\nundefined: frobnicate\n", stderr: "" },
  },
  { kind: "assistant", id: "m1", turnId: "t1", text: "The function `frobnicate` is missing." },
  { kind: "stop", turnId: "t1", reason: "completed", usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2, cachedTokens: 0 } },
];

const texts = (name: string) => (registry.get(name)?.ranges ?? []).map((r) => r.toString());

describe("find in the conversation", () => {
  it("finds matches in folded tool output by the items, not the DOM", () => {
    expect(findMatches(items, "FROBNICATE")).toEqual([{ index: 1, inBody: true }, { index: 2, inBody: false }]);
    expect(findMatches(items, "make build")).toEqual([{ index: 1, inBody: false }]);
    expect(findMatches(items, "  ")).toEqual([]);
  });

  it("opens with Ctrl+F outside the message box, unfolds the card holding the match and highlights it, then steps on", async () => {
    const b = fakeBackend({}, { sessionId: "s1", lastSeq: 4, transcript: items });
    render(<App backend={b} />);
    const card = await screen.findByRole("group", { name: "bash make build, done" });
    expect(within(card).getByRole("button", { expanded: false })).toBeTruthy();

    // In the message box Ctrl+F is left alone.
    const box = screen.getByRole("textbox", { name: "Message" });
    box.focus();
    fireEvent.keyDown(box, { key: "f", ctrlKey: true });
    expect(screen.queryByRole("searchbox", { name: "Find in conversation" })).toBeNull();
    box.blur();

    fireEvent.keyDown(document.body, { key: "f", ctrlKey: true });
    const find = screen.getByRole("searchbox", { name: "Find in conversation" });
    expect(document.activeElement).toBe(find);
    fireEvent.input(find, { target: { value: "frobnicate" } });
    expect(screen.getByRole("status", { name: "" }).textContent).toBe("1 of 2");
    // The first match is in the folded stdout: the card unfolds and the match is the current highlight.
    await waitFor(() => expect(within(card).getByRole("button", { expanded: true })).toBeTruthy());
    await waitFor(() => expect(texts("find-current")).toEqual(["frobnicate"]));
    const current = registry.get("find-current")!.ranges[0];
    expect(card.querySelector(".tool-body")!.contains(current.startContainer)).toBe(true);
    expect(texts("find")).toContain("frobnicate"); // the reply's, not current

    fireEvent.keyDown(find, { key: "Enter" });
    expect(screen.getByText("2 of 2")).toBeTruthy();
    await waitFor(() => expect(screen.getByRole("article", { name: "Reply" }).contains(registry.get("find-current")!.ranges[0].startContainer)).toBe(true));

    fireEvent.keyDown(find, { key: "Escape" });
    expect(screen.queryByRole("searchbox")).toBeNull();
    expect(registry.has("find")).toBe(false);
  });

  it("finds a word only in the folded output of an early card not rendered, scrolls it in, unfolds and highlights it", async () => {
    const long: TranscriptItem[] = [];
    for (let t = 0; t < 60; t++) {
      const turnId = `t${t}`;
      long.push(
        { kind: "user", id: turnId, turnId, text: `step ${t}` },
        { kind: "tool", id: `c${t}`, turnId, tool: "bash", args: { action: "exec", command: `make step${t}` }, running: false, isError: false, durationMs: 5,
          result: { exitCode: 0, stdout: t === 0 ? "ok\nzanzibar\n" : "ok\n", stderr: "" } },
        { kind: "assistant", id: `m${t}`, turnId, text: `done ${t}` },
        { kind: "stop", turnId, reason: "completed", usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2, cachedTokens: 0 } },
      );
    }
    // jsdom lays nothing out and scrolls nothing: an element scrolled to an offset keeps it and says so.
    // Every row is 800 px high here (giveLayout).
    let scrolled = 0;
    Object.defineProperty(HTMLElement.prototype, "scrollTop", { configurable: true, get: () => scrolled, set: (v: number) => void (scrolled = v) });
    Object.defineProperty(HTMLElement.prototype, "scrollHeight", { configurable: true, get: () => long.length * 800 });
    HTMLElement.prototype.scrollTo = function (this: HTMLElement, o?: ScrollToOptions | number) {
      scrolled = typeof o === "number" ? o : (o?.top ?? scrolled);
      setTimeout(() => this.dispatchEvent(new Event("scroll")));
    } as typeof HTMLElement.prototype.scrollTo;
    onTestFinished(() => {
      const proto = HTMLElement.prototype as unknown as Record<string, unknown>;
      for (const k of ["scrollTop", "scrollHeight", "scrollTo"]) delete proto[k];
    });
    const b = fakeBackend({}, { sessionId: "s1", lastSeq: 240, transcript: long });
    render(<App backend={b} />);
    // The window follows the end: only the rows near it are in the page.
    await screen.findByRole("group", { name: "bash make step59, done" });
    expect(screen.queryByRole("group", { name: "bash make step0, done" })).toBeNull();

    fireEvent.keyDown(document.body, { key: "f", ctrlKey: true });
    fireEvent.input(screen.getByRole("searchbox", { name: "Find in conversation" }), { target: { value: "Zanzibar" } });
    expect(screen.getByText("1 of 1")).toBeTruthy();
    const card = await screen.findByRole("group", { name: "bash make step0, done" });
    await waitFor(() => expect(within(card).getByRole("button", { expanded: true })).toBeTruthy());
    await waitFor(() => expect(texts("find-current")).toEqual(["zanzibar"]));
    expect(card.querySelector(".tool-body")!.contains(registry.get("find-current")!.ranges[0].startContainer)).toBe(true);
  });

  it("opens from the Find button and says when nothing matches", async () => {
    const b = fakeBackend({}, { sessionId: "s1", lastSeq: 4, transcript: items });
    render(<App backend={b} />);
    fireEvent.click(await screen.findByRole("button", { name: "Find" }));
    fireEvent.input(screen.getByRole("searchbox", { name: "Find in conversation" }), { target: { value: "nothing like it" } });
    expect(screen.getByText("No matches")).toBeTruthy();
    act(() => b.emit("turn.started", { prompt: "nothing like it, again" }, "t2"));
    expect(screen.getByText("1 of 1")).toBeTruthy();
  });
});
