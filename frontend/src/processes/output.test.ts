import { describe, expect, it } from "vitest";
import { dropBytes, OutputStream, takeBytes, type Page, type Piece } from "./output";

/** A fake backend holding bytes [start, text.length) of an ASCII output. */
function harness(text: string, start = 0, opts = {}) {
  const pieces: Piece[] = [];
  const fetches: Array<[number, number]> = [];
  const gates: Array<() => void> = [];
  let hold = false;
  const io = {
    fetch: async (offset: number, limit: number): Promise<Page> => {
      fetches.push([offset, limit]);
      if (hold) await new Promise<void>((r) => gates.push(r));
      const end = text.length;
      let from = offset < 0 ? Math.max(0, end + offset) : offset;
      const truncated = from < start;
      from = Math.max(from, start);
      const to = Math.min(end, from + limit);
      return { data: text.slice(from, to), offset: from, nextOffset: to, truncated };
    },
    emit: (p: Piece) => pieces.push(p),
  };
  const stream = new OutputStream(io, opts);
  const shown = () => pieces.map((p) => (p.kind === "data" ? p.data : `<skipped ${p.bytes}>`)).join("");
  const chunk = (from: number, to: number) => ({ offset: from, nextOffset: to, data: text.slice(from, to) });
  return {
    stream, pieces, fetches, shown, chunk,
    hold: () => (hold = true),
    release: () => { hold = false; gates.splice(0).forEach((g) => g()); },
  };
}

const TEXT = "abcdefghijklmnopqrstuvwxyz0123456789";

describe("OutputStream", () => {
  it("loads the tail, then appends live chunks in order", async () => {
    const h = harness(TEXT.slice(0, 10));
    await h.stream.loadTail(1024);
    await h.stream.push({ offset: 10, nextOffset: 13, data: "klm" });
    await h.stream.push({ offset: 13, nextOffset: 15, data: "no" });
    expect(h.shown()).toBe("abcdefghijklmno");
    expect(h.stream.next).toBe(15);
  });

  it("drops chunks it has shown and trims one that overlaps", async () => {
    const h = harness(TEXT);
    await h.stream.push(h.chunk(0, 5));
    await h.stream.push(h.chunk(0, 5)); // repeated
    await h.stream.push(h.chunk(3, 8)); // overlaps "de"
    expect(h.shown()).toBe("abcdefgh");
  });

  it("fetches a gap with ProcessLogs and shows it before the chunk after it", async () => {
    const h = harness(TEXT);
    await h.stream.push(h.chunk(0, 4));
    await h.stream.push(h.chunk(10, 12)); // bytes 4..10 were skipped by the backend
    expect(h.fetches).toEqual([[4, 6]]);
    expect(h.shown()).toBe("abcdefghijkl");
  });

  it("keeps order when chunks arrive while a gap is being fetched", async () => {
    const h = harness(TEXT);
    await h.stream.push(h.chunk(0, 2));
    h.hold();
    const a = h.stream.push(h.chunk(6, 8)); // gap 2..6: fetch held
    const b = h.stream.push(h.chunk(8, 10));
    const c = h.stream.push(h.chunk(10, 12));
    expect(h.shown()).toBe("ab");
    h.release();
    await Promise.all([a, b, c]);
    expect(h.shown()).toBe("abcdefghijkl");
  });

  it("shows chunks that raced the tail load once", async () => {
    const h = harness(TEXT.slice(0, 8));
    h.hold();
    const tail = h.stream.loadTail(1024);
    const live = h.stream.push({ offset: 6, nextOffset: 10, data: TEXT.slice(6, 10) }); // the tail has up to 8
    h.release();
    await Promise.all([tail, live]);
    expect(h.shown()).toBe("abcdefghij");
  });

  it("marks output the ring buffer lost as skipped", async () => {
    const h = harness(TEXT, 6); // the ring starts at 6: bytes 2..6 are gone
    await h.stream.push(h.chunk(0, 2));
    await h.stream.push(h.chunk(10, 12));
    expect(h.shown()).toBe("ab<skipped 4>ghijkl");
  });

  it("fetches only the newest part of a huge gap", async () => {
    const h = harness(TEXT, 0, { maxGapFetch: 4, pageSize: 2 });
    await h.stream.push(h.chunk(0, 2));
    await h.stream.push(h.chunk(20, 22));
    expect(h.shown()).toBe("ab<skipped 14>qrstuv");
    expect(h.fetches).toEqual([[16, 2], [18, 2]]);
  });

  it("skips gaps without fetching while the view is behind", async () => {
    const h = harness(TEXT, 0, { fetchGaps: () => false });
    await h.stream.push(h.chunk(0, 2));
    await h.stream.push(h.chunk(10, 12));
    expect(h.shown()).toBe("ab<skipped 8>kl");
    expect(h.fetches).toEqual([]);
  });

  it("says how much older output the tail leaves out", async () => {
    const h = harness(TEXT);
    await h.stream.loadTail(6);
    expect(h.shown()).toBe(`<skipped ${TEXT.length - 6}>` + TEXT.slice(-6));
  });

  it("bounds its queue: the oldest waiting chunks become a gap", async () => {
    const h = harness(TEXT, 0, { maxQueue: 2 });
    await h.stream.push(h.chunk(0, 1));
    h.hold();
    const first = h.stream.push(h.chunk(2, 3)); // gap 1..2, held
    const rest = [h.stream.push(h.chunk(3, 4)), h.stream.push(h.chunk(4, 5)), h.stream.push(h.chunk(5, 6))];
    h.release();
    await Promise.all([first, ...rest]);
    // 3..4 was dropped from the queue and fetched back as a gap: nothing lost.
    expect(h.shown()).toBe("abcdef");
  });

  it("emits nothing after dispose", async () => {
    const h = harness(TEXT);
    h.hold();
    const p = h.stream.loadTail(100);
    h.stream.dispose();
    h.release();
    await p;
    expect(h.pieces).toEqual([]);
  });
});

describe("byte slicing", () => {
  it("cuts on UTF-8 byte counts, not UTF-16 units", () => {
    expect(dropBytes("é€x", 2)).toBe("€x");
    expect(dropBytes("é€x", 5)).toBe("x");
    expect(takeBytes("é€x", 5)).toBe("é€");
    expect(takeBytes("abc", 10)).toBe("abc");
  });

  it("trims an overlapping chunk of multi-byte text", async () => {
    const pieces: Piece[] = [];
    const s = new OutputStream({ fetch: async () => ({ data: "", offset: 0, nextOffset: 0, truncated: false }), emit: (p) => pieces.push(p) });
    await s.push({ offset: 0, nextOffset: 5, data: "é€" });
    await s.push({ offset: 2, nextOffset: 7, data: "€ü" });
    expect(pieces.map((p) => (p.kind === "data" ? p.data : "")).join("")).toBe("é€ü");
  });
});
