import { describe, expect, it, vi } from "vitest";
import type { GatehouseEvent, Snapshot } from "../bridge";
import { TranscriptStore, type TranscriptSource } from "./store";

type Ev = GatehouseEvent;
const S = "s1";
const ev = (seq: number, type: Ev["type"], payload: unknown, turnId = "t1", sessionId = S) =>
  ({ seq, sessionId, turnId, type, payload }) as Ev;
const snap = (over: Partial<Snapshot> = {}): Snapshot => ({
  sessionId: S, turnId: "", transcript: [], pendingApprovals: [], processes: [], lastSeq: 0, ...over,
});

/** A fake backend: snapshots resolve when the test says so. */
function source(first: Snapshot = snap()) {
  let handler: ((e: Ev) => void) | null = null;
  const snaps: Array<(s: Snapshot) => void> = [];
  const src = {
    snapshot: vi.fn(() => new Promise<Snapshot>((r) => snaps.push(r))),
    onEvent: vi.fn((h: (e: Ev) => void) => ((handler = h), () => (handler = null))),
    queued: vi.fn(async () => [] as string[]),
  } satisfies TranscriptSource;
  const store = new TranscriptStore(src);
  store.start();
  snaps.shift()!(first);
  return {
    store, src,
    emit: (e: Ev) => handler!(e),
    answer: (s: Snapshot) => snaps.shift()!(s),
    subscribed: () => handler !== null,
  };
}
const flush = () => new Promise((r) => setTimeout(r, 0));

describe("TranscriptStore", () => {
  it("loads the snapshot at start", async () => {
    const f = source(snap({ transcript: [{ kind: "user", id: "t0", turnId: "t0", text: "earlier" }], lastSeq: 4 }));
    await flush();
    expect(f.store.get().loaded).toBe(true);
    expect(f.store.get().items.map((i) => i.text)).toEqual(["earlier"]);
    expect(f.store.get().lastSeq).toBe(4);
  });

  it("folds an undo into the transcript, as the Go state does", async () => {
    const f = source();
    await flush();
    const undo = { unit: "undo-1", of: "s1-t1", restored: ["a.txt"], skipped: { "b.txt": "changed since: kept as it is" } };
    f.emit(ev(1, "undo.applied", undo, ""));
    expect(f.store.get().items).toEqual([{ kind: "undo", id: "undo-1", turnId: "", undo }]);
  });

  it("folds the servers a turn runs without into the transcript, as the Go state does", async () => {
    const f = source();
    await flush();
    f.emit(ev(1, "turn.started", { prompt: "hello" }));
    f.emit(ev(2, "mcp.waiting", { servers: ["github", "docs"] }));
    expect(f.store.get().items[1]).toEqual({ kind: "mcp_waiting", turnId: "t1", servers: ["github", "docs"] });
  });

  it("folds a streamed turn like the Go state does", async () => {
    const f = source();
    await flush();
    f.emit(ev(1, "turn.started", { prompt: "hello" }));
    f.emit(ev(2, "message.delta", { messageId: "m1", text: "Hello " }));
    f.emit(ev(3, "message.delta", { messageId: "m1", text: "**there**" }));
    let items = f.store.get().items;
    expect(items[1]).toMatchObject({ kind: "assistant", id: "m1", text: "Hello **there**", streaming: true });
    expect(f.store.get().turnId).toBe("t1");
    f.emit(ev(4, "message.done", { messageId: "m1", text: "Hello **there**" }));
    f.emit(ev(5, "tool.started", { callId: "c1", tool: "read_file", args: { path: "a" } }));
    expect(f.store.get().items[2]).toMatchObject({ kind: "tool", running: true, tool: "read_file" });
    f.emit(ev(6, "tool.finished", { callId: "c1", tool: "read_file", result: { content: "x" }, isError: false, durationMs: 3 }));
    const usage = { promptTokens: 1, completionTokens: 2, totalTokens: 3, cachedTokens: 0 };
    f.emit(ev(7, "turn.stopped", { reason: "completed", usage }));
    items = f.store.get().items;
    expect(items.map((i) => i.kind)).toEqual(["user", "assistant", "tool", "stop"]);
    expect(items[1].streaming).toBe(false);
    expect(items[2]).toMatchObject({ running: false, durationMs: 3, result: { content: "x" } });
    expect(items[3]).toMatchObject({ reason: "completed", usage });
    expect(f.store.get().turnId).toBe("");
    expect(f.src.snapshot).toHaveBeenCalledTimes(1);
  });

  it("keeps the hooks that ran on a call and a hook's rewrite from tool.finished", async () => {
    const f = source();
    await flush();
    f.emit(ev(1, "turn.started", { prompt: "go" }));
    f.emit(ev(2, "tool.started", { callId: "c1", tool: "bash", args: { command: "ls" } }));
    const hooks = [{ name: "./guard.sh", event: "PreToolUse", source: "user", verdict: "no objection, rewrote the input", exitCode: 0, durationMs: 5, rewrote: true }];
    const rewrite = { hook: "./guard.sh", original: { command: "ls" }, args: { command: "ls -a" } };
    f.emit(ev(3, "tool.finished", { callId: "c1", tool: "bash", result: {}, isError: false, durationMs: 3, hooks, rewrite }));
    expect(f.store.get().items[1]).toMatchObject({ hooks, rewrite });
  });

  it("keeps unchanged items by identity", async () => {
    const f = source();
    await flush();
    f.emit(ev(1, "turn.started", { prompt: "hi" }));
    const user = f.store.get().items[0];
    f.emit(ev(2, "message.delta", { messageId: "m1", text: "a" }));
    f.emit(ev(3, "message.delta", { messageId: "m1", text: "b" }));
    expect(f.store.get().items[0]).toBe(user);
  });

  it("marks a cancelled reply", async () => {
    const f = source();
    await flush();
    f.emit(ev(1, "turn.started", { prompt: "hi" }));
    f.emit(ev(2, "message.delta", { messageId: "m1", text: "Hel" }));
    f.emit(ev(3, "message.done", { messageId: "m1", text: "Hel", cancelled: true }));
    expect(f.store.get().items[1]).toMatchObject({ cancelled: true, streaming: false, text: "Hel" });
  });

  it("ignores events the snapshot already holds", async () => {
    const f = source(snap({ transcript: [{ kind: "user", id: "t1", turnId: "t1", text: "hi" }], lastSeq: 1 }));
    await flush();
    f.emit(ev(1, "turn.started", { prompt: "hi" }));
    f.emit(ev(2, "message.delta", { messageId: "m1", text: "x" }));
    expect(f.store.get().items.map((i) => i.kind)).toEqual(["user", "assistant"]);
  });

  it("resyncs from Snapshot() on a seq gap and replays what came meanwhile", async () => {
    const f = source();
    await flush();
    f.emit(ev(1, "turn.started", { prompt: "hi" }));
    f.emit(ev(3, "message.delta", { messageId: "m1", text: "lost-and-" })); // seq 2 never came
    expect(f.src.snapshot).toHaveBeenCalledTimes(1); // it may be late: 3 waits for it a moment
    await new Promise((r) => setTimeout(r, 400));
    expect(f.src.snapshot).toHaveBeenCalledTimes(2);
    f.emit(ev(4, "message.delta", { messageId: "m1", text: "found" }));
    expect(f.store.get().items).toHaveLength(1); // held until the snapshot is in
    f.answer(snap({
      turnId: "t1", lastSeq: 3,
      transcript: [
        { kind: "user", id: "t1", turnId: "t1", text: "hi" },
        { kind: "assistant", id: "m1", turnId: "t1", text: "X-lost-and-", streaming: true },
      ],
    }));
    await flush();
    expect(f.store.get().items[1].text).toBe("X-lost-and-found");
    expect(f.store.get().lastSeq).toBe(4);
    f.emit(ev(5, "message.done", { messageId: "m1", text: "done" }));
    expect(f.store.get().items[1].text).toBe("done");
  });

  it("folds events that arrive out of order in seq order, without a resync", async () => {
    const f = source();
    await flush();
    f.emit(ev(1, "turn.started", { prompt: "hi" }));
    f.emit(ev(3, "message.delta", { messageId: "m1", text: "world" }));
    f.emit(ev(4, "message.delta", { messageId: "m1", text: "!" }));
    expect(f.store.get().lastSeq).toBe(1); // 3 and 4 wait for 2
    f.emit(ev(2, "message.delta", { messageId: "m1", text: "hello " }));
    expect(f.store.get().items[1].text).toBe("hello world!");
    expect(f.store.get().lastSeq).toBe(4);
    await new Promise((r) => setTimeout(r, 400));
    expect(f.src.snapshot).toHaveBeenCalledTimes(1);
  });

  it("starts over when the first turn of a new session starts", async () => {
    const f = source(snap({ transcript: [{ kind: "user", id: "t0", turnId: "t0", text: "old" }], lastSeq: 2 }));
    await flush();
    f.emit(ev(3, "turn.started", { prompt: "new" }, "t9", "s2"));
    expect(f.store.get().sessionId).toBe("s2");
    expect(f.store.get().items.map((i) => i.text)).toEqual(["new"]);
    f.emit(ev(4, "message.delta", { messageId: "m", text: "stray" }, "t0", S)); // the closed session
    expect(f.store.get().items).toHaveLength(1);
    expect(f.store.get().lastSeq).toBe(4);
  });

  it("leaves a background tab's turn out of the transcript shown, without a resync", async () => {
    const f = source(snap({ transcript: [{ kind: "user", id: "t0", turnId: "t0", text: "mine" }], lastSeq: 2 }));
    await flush();
    f.store.setBackground(["s2"]);
    f.emit(ev(3, "turn.started", { prompt: "theirs" }, "t9", "s2"));
    f.emit(ev(4, "message.delta", { messageId: "m", text: "theirs too" }, "t9", "s2"));
    f.emit(ev(5, "turn.started", { prompt: "mine again" }, "t1", S));
    expect(f.store.get().sessionId).toBe(S);
    expect(f.store.get().items.map((i) => i.text)).toEqual(["mine", "mine again"]);
    expect(f.store.get().lastSeq).toBe(5);
    expect(f.src.snapshot).toHaveBeenCalledTimes(1); // no gap was seen
  });

  it("folds the shown session's events even while the tab list still calls it background", async () => {
    const f = source(snap({ sessionId: "s2", lastSeq: 2 }));
    await flush();
    f.store.setBackground(["s2"]); // a stale list: s2 was in the background before the switch
    f.emit(ev(3, "turn.started", { prompt: "go on" }, "t9", "s2"));
    expect(f.store.get().items.map((i) => i.text)).toEqual(["go on"]);
  });

  it("shows queued messages until their turn starts", async () => {
    const f = source();
    await flush();
    f.emit(ev(1, "turn.started", { prompt: "first" }));
    f.src.queued.mockResolvedValue(["second"]);
    f.store.addQueued("second");
    expect(f.store.get().queued).toEqual(["second"]);
    await flush();
    f.src.queued.mockResolvedValue([]);
    f.emit(ev(2, "turn.stopped", { reason: "completed", usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0, cachedTokens: 0 } }));
    f.emit(ev(3, "turn.started", { prompt: "second" }, "t2"));
    expect(f.store.get().queued).toEqual([]);
    expect(f.store.get().items.at(-1)).toMatchObject({ kind: "user", text: "second" });
  });

  it("says so when the snapshot cannot be loaded, and unsubscribes on stop", async () => {
    let handler: unknown = null;
    const store = new TranscriptStore({
      snapshot: async () => { throw new Error("backend gone"); },
      onEvent: (h) => ((handler = h), () => (handler = null)),
      queued: async () => [],
    });
    const stop = store.start();
    await flush();
    expect(store.get().error).toMatch(/backend gone/);
    stop();
    expect(handler).toBeNull();
  });
});
