import { describe, expect, it } from "vitest";
import { FrameWriter } from "./frameWriter";

function setup(maxPending?: number) {
  const frames: Array<() => void> = [];
  const writes: string[] = [];
  const done: Array<() => void> = [];
  const w = new FrameWriter((data, cb) => (writes.push(data), done.push(cb)), {
    maxPending,
    dropMarker: (n) => `<${n} dropped>`,
    requestFrame: (cb) => frames.push(cb),
  });
  const frame = () => frames.splice(0).forEach((f) => f());
  return { w, frames, writes, done, frame };
}

describe("FrameWriter", () => {
  it("writes everything pushed within a frame as one batch", () => {
    const t = setup();
    t.w.push("a");
    t.w.push("b");
    t.w.push("c");
    expect(t.writes).toEqual([]);
    expect(t.frames.length).toBe(1);
    t.frame();
    expect(t.writes).toEqual(["abc"]);
  });

  it("waits for the terminal to finish a batch before the next", () => {
    const t = setup();
    t.w.push("a");
    t.frame();
    t.w.push("b");
    t.frame();
    expect(t.writes).toEqual(["a"]); // "a" is still being parsed
    t.done.shift()!();
    t.frame();
    expect(t.writes).toEqual(["a", "b"]);
  });

  it("drops the oldest text when the terminal falls behind, and says so", () => {
    const t = setup(6);
    t.w.push("x");
    t.frame(); // in flight, never finishes for now
    for (const s of ["111", "222", "333"]) t.w.push(s);
    expect(t.w.backlog).toBe(6);
    t.done.shift()!();
    t.frame();
    expect(t.writes).toEqual(["x", "<3 dropped>222333"]);
  });

  it("tells when the terminal has parsed everything pushed", async () => {
    const t = setup();
    let drained = false;
    t.w.push("a");
    void t.w.drained().then(() => (drained = true));
    t.frame();
    await Promise.resolve();
    expect(drained).toBe(false);
    t.done.shift()!();
    await Promise.resolve();
    expect(drained).toBe(true);
  });

  it("writes nothing after dispose", () => {
    const t = setup();
    t.w.push("a");
    t.w.dispose();
    t.frame();
    expect(t.writes).toEqual([]);
  });
});

describe("FrameWriter batch size", () => {
  it("hands over at most maxPerFrame characters per frame, in order", () => {
    const frames: Array<() => void> = [];
    const writes: string[] = [];
    const w = new FrameWriter((d, done) => (writes.push(d), done()), { minPerFrame: 4, maxPerFrame: 4, requestFrame: (cb) => frames.push(cb) });
    w.push("abcdef");
    w.push("gh");
    w.push("ij");
    while (frames.length) frames.shift()!();
    expect(writes).toEqual(["abcd", "efgh", "ij"]);
    expect(w.backlog).toBe(0);
  });

  it("never splits a surrogate pair", () => {
    const frames: Array<() => void> = [];
    const writes: string[] = [];
    const w = new FrameWriter((d, done) => (writes.push(d), done()), { minPerFrame: 2, maxPerFrame: 2, requestFrame: (cb) => frames.push(cb) });
    w.push("a😀b");
    while (frames.length) frames.shift()!();
    expect(writes).toEqual(["a", "😀", "b"]);
  });

  it("shrinks its batches when the terminal is slow and grows them when it is fast", () => {
    const frames: Array<() => void> = [];
    let clock = 0;
    let parseMs = 40;
    const w = new FrameWriter((_d, done) => ((clock += parseMs), done()), {
      minPerFrame: 1024, maxPerFrame: 64 << 10, budgetMs: 12, now: () => clock, requestFrame: (cb) => frames.push(cb),
    });
    const start = w.perFrame;
    w.push("x".repeat(1 << 20));
    frames.shift()!();
    expect(w.perFrame).toBe(start / 2);
    for (let i = 0; i < 10; i++) frames.shift()!();
    expect(w.perFrame).toBe(1024);
    parseMs = 1;
    for (let i = 0; i < 10; i++) frames.shift()!();
    expect(w.perFrame).toBe(64 << 10);
  });
});
