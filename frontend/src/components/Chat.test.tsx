import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { App } from "../App";
import { fakeBackend, giveLayout } from "../test/fakeBackend";

beforeAll(giveLayout);
afterEach(cleanup);

const usage = { promptTokens: 12, completionTokens: 3, totalTokens: 15, cachedTokens: 0 };

async function setup(snapshot = {}) {
  const b = fakeBackend({}, snapshot);
  render(<App backend={b} />);
  const box = (await screen.findByRole("textbox", { name: "Message" })) as HTMLTextAreaElement;
  await waitFor(() => expect(b.snapshot).toHaveBeenCalled());
  return { b, box };
}

describe("Chat", () => {
  it("sends on Enter and keeps Shift+Enter for a new line", async () => {
    const { b, box } = await setup();
    fireEvent.input(box, { target: { value: "line one" } });
    fireEvent.keyDown(box, { key: "Enter", shiftKey: true });
    expect(b.submit).not.toHaveBeenCalled();
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(b.submit).toHaveBeenCalledWith({ text: "line one" }));
    expect(box.value).toBe("");
  });

  it("streams the reply as markdown and ends the turn with its reason and usage", async () => {
    const { b } = await setup();
    act(() => {
      b.emit("turn.started", { prompt: "hello" });
      b.emit("message.delta", { messageId: "m1", text: "Hello " });
    });
    const reply = screen.getByRole("article", { name: "Reply, streaming" });
    expect(reply.getAttribute("aria-busy")).toBe("true");
    expect(screen.getByRole("button", { name: /Stop/ })).toBeTruthy();
    act(() => b.emit("message.delta", { messageId: "m1", text: "**there**" }));
    expect(within(reply).getByText("there").tagName).toBe("STRONG");
    act(() => {
      b.emit("message.done", { messageId: "m1", text: "Hello **there**" });
      b.emit("turn.stopped", { reason: "completed", usage });
    });
    expect(screen.getByRole("article", { name: "Reply" })).toBeTruthy();
    expect(screen.getByRole("note", { name: "End of turn" }).textContent).toContain("completed · 15 tokens (12 in · 3 out)");
    expect(screen.queryByRole("button", { name: /Stop/ })).toBeNull();
    expect(screen.getByRole("article", { name: "Your message" }).textContent).toContain("hello");
  });

  it("stops a running turn with the Stop button or Esc, and marks the reply cancelled", async () => {
    const { b } = await setup();
    act(() => {
      b.emit("turn.started", { prompt: "go" });
      b.emit("message.delta", { messageId: "m1", text: "Hel" });
    });
    fireEvent.click(screen.getByRole("button", { name: /Stop/ }));
    fireEvent.keyDown(window, { key: "Escape" });
    expect(b.cancel).toHaveBeenCalledTimes(2);
    act(() => {
      b.emit("message.done", { messageId: "m1", text: "Hel", cancelled: true });
      b.emit("turn.stopped", { reason: "cancelled", usage });
    });
    const reply = screen.getByRole("article", { name: "Reply, cancelled" });
    expect(within(reply).getByText("cancelled")).toBeTruthy();
    expect(screen.getByRole("note", { name: "End of turn" }).textContent).toContain("cancelled by you");
  });

  it("shows a message typed during a turn as queued until its turn starts", async () => {
    const { b, box } = await setup();
    act(() => b.emit("turn.started", { prompt: "first" }));
    b.submit.mockResolvedValueOnce({ queued: true });
    b.queued.mockResolvedValue(["second"]);
    fireEvent.input(box, { target: { value: "second" } });
    fireEvent.keyDown(box, { key: "Enter" });
    const queued = await screen.findByRole("article", { name: "Your message, queued" });
    expect(within(queued).getByText("queued")).toBeTruthy();
    b.queued.mockResolvedValue([]);
    act(() => {
      b.emit("turn.stopped", { reason: "completed", usage });
      b.emit("turn.started", { prompt: "second" }, "t2");
    });
    await waitFor(() => expect(screen.queryByRole("article", { name: "Your message, queued" })).toBeNull());
    expect(screen.getAllByRole("article", { name: "Your message" })).toHaveLength(2);
  });

  it("says what to do about a model error", async () => {
    const { b } = await setup();
    act(() => {
      b.emit("turn.started", { prompt: "hi" });
      b.emit("turn.stopped", { reason: "error", error: "The model server refused the key.", errorKind: "key_rejected", usage });
    });
    const alert = screen.getByRole("alert");
    expect(alert.textContent).toContain("The model server refused the key.");
    expect(alert.textContent).toContain("Check the API key in Settings.");
    fireEvent.click(within(alert).getByRole("button", { name: "Open settings" }));
    expect(await screen.findByRole("heading", { name: "Settings" })).toBeTruthy();
  });

  it("sanitises model markdown and highlights code blocks", async () => {
    const { b } = await setup();
    const text = 'Hi <img src=x onerror="alert(1)"><script>alert(2)</script> [x](javascript:alert(3))\n\n```go\nfunc main() {}\n```';
    act(() => {
      b.emit("turn.started", { prompt: "hi" });
      b.emit("message.done", { messageId: "m1", text });
    });
    const reply = screen.getByRole("article", { name: "Reply" });
    expect(reply.querySelector("script, img, [onerror]")).toBeNull();
    expect(reply.querySelector("a")?.getAttribute("href")).toBeNull();
    expect(reply.querySelector("code.language-go .hljs-keyword")?.textContent).toBe("func");
  });

  it("loads the conversation from the snapshot at start", async () => {
    await setup({
      sessionId: "s1", lastSeq: 3,
      transcript: [
        { kind: "user", id: "t0", turnId: "t0", text: "earlier question" },
        { kind: "assistant", id: "m0", turnId: "t0", text: "earlier *answer*" },
      ],
    });
    expect(await screen.findByText("earlier question")).toBeTruthy();
    expect(screen.getByText("answer").tagName).toBe("EM");
  });

  it("retries the last turn and puts the last message back to edit, only on the last turn and while idle", async () => {
    const stop = (t: string) => ({ kind: "stop" as const, turnId: t, reason: "completed" as const, usage });
    const { b, box } = await setup({
      sessionId: "s1", lastSeq: 4,
      transcript: [
        { kind: "user", id: "t1", turnId: "t1", text: "first" }, stop("t1"),
        { kind: "user", id: "t2", turnId: "t2", text: "add a test" }, stop("t2"),
      ],
    });
    const retries = await screen.findAllByRole("button", { name: "Retry" });
    expect(retries).toHaveLength(1);
    expect(screen.getAllByRole("button", { name: "Edit" })).toHaveLength(1);
    expect(screen.getAllByRole("article", { name: "Your message" })[1].contains(screen.getByRole("button", { name: "Edit" }))).toBe(true);
    fireEvent.click(retries[0]);
    await waitFor(() => expect(b.retry).toHaveBeenCalled());
    expect(b.submit).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole("button", { name: "Edit" }));
    expect(box.value).toBe("add a test");
    expect(document.activeElement).toBe(box);
    fireEvent.input(box, { target: { value: "add two tests" } });
    fireEvent.keyDown(box, { key: "Enter" });
    await waitFor(() => expect(b.submit).toHaveBeenLastCalledWith({ text: "add two tests" }));
    act(() => b.emit("turn.started", { prompt: "add two tests" }, "t3"));
    expect(screen.queryByRole("button", { name: "Retry" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Edit" })).toBeNull();
  });
});
