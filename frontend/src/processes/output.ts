// Output bookkeeping for one process's terminal view: live chunks and pages
// read with ProcessLogs are put in order by their absolute byte offsets, so
// every byte is shown once, in order, and what cannot be had any more is
// reported as skipped instead of silently missing.
//
// Contract: loadTail is called once, before or after the first push; push
// takes process.output payloads in the order they arrived. Pieces are emitted
// strictly in offset order; fetches run one at a time; chunks that arrive
// while a fetch is under way wait in a bounded queue.

export interface Chunk {
  offset: number;
  nextOffset: number;
  data: string;
}

export interface Page extends Chunk {
  truncated: boolean;
}

export type Piece = { kind: "data"; data: string } | { kind: "skipped"; bytes: number };

export interface StreamIO {
  /** Reads output from offset (negative: the tail), at most limit bytes. */
  fetch(offset: number, limit: number): Promise<Page>;
  emit(piece: Piece): void;
  onError?(err: unknown): void;
}

export interface StreamOptions {
  /** The most bytes of one gap fetched back; the older rest is skipped. */
  maxGapFetch?: number;
  /** Bytes per ProcessLogs call. */
  pageSize?: number;
  /** Queued chunks beyond this drop the oldest (they become a gap). */
  maxQueue?: number;
  /** Whether to fetch gaps now; false (the view is behind a flood) skips them. */
  fetchGaps?: () => boolean;
}

type Item = { kind: "tail"; bytes: number } | { kind: "chunk"; chunk: Chunk };

export class OutputStream {
  /** The offset of the next byte to show; -1 until the first data. */
  next = -1;
  private queue: Item[] = [];
  private busy = false;
  private running: Promise<void> | null = null;
  private disposed = false;
  private readonly maxGapFetch: number;
  private readonly pageSize: number;
  private readonly maxQueue: number;
  private readonly fetchGaps: () => boolean;

  constructor(private io: StreamIO, opts: StreamOptions = {}) {
    this.maxGapFetch = opts.maxGapFetch ?? 256 << 10;
    this.pageSize = opts.pageSize ?? 256 << 10;
    this.maxQueue = opts.maxQueue ?? 64;
    this.fetchGaps = opts.fetchGaps ?? (() => true);
  }

  /** Shows the last bytes of output the backend still holds. */
  loadTail(bytes: number): Promise<void> {
    this.queue.unshift({ kind: "tail", bytes });
    return this.pump();
  }

  /** Takes one live chunk (a process.output payload). */
  push(chunk: Chunk): Promise<void> {
    this.queue.push({ kind: "chunk", chunk });
    let chunks = this.queue.filter((i) => i.kind === "chunk").length;
    while (chunks > this.maxQueue) {
      const i = this.queue.findIndex((it) => it.kind === "chunk");
      this.queue.splice(i, 1);
      chunks--;
    }
    return this.pump();
  }

  /** Stops emitting; a fetch under way is ignored when it returns. */
  dispose(): void {
    this.disposed = true;
    this.queue = [];
  }

  /** Resolves once everything queued so far has been emitted. */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  private pump(): Promise<void> {
    if (this.busy) return this.running!;
    this.busy = true;
    this.running = (async () => {
      try {
        while (this.queue.length && !this.disposed) {
          const item = this.queue.shift()!;
          try {
            if (item.kind === "tail") await this.tail(item.bytes);
            else await this.chunk(item.chunk);
          } catch (err) {
            this.io.onError?.(err);
          }
        }
      } finally {
        this.busy = false;
        this.running = null;
      }
    })();
    return this.running;
  }

  private emit(p: Piece) {
    if (this.disposed) return;
    if (p.kind === "data" && p.data === "") return;
    if (p.kind === "skipped" && p.bytes <= 0) return;
    this.io.emit(p);
  }

  private async tail(bytes: number) {
    const page = await this.io.fetch(-bytes, bytes);
    if (this.disposed) return;
    if (this.next >= 0) {
      // Live chunks came first (the tail was asked late): keep what is new.
      if (page.nextOffset > this.next) this.accept(page);
      return;
    }
    this.emit({ kind: "skipped", bytes: page.offset });
    this.emit({ kind: "data", data: page.data });
    this.next = page.nextOffset;
  }

  private async chunk(c: Chunk) {
    if (this.next < 0) {
      this.next = c.offset;
    }
    if (c.nextOffset <= this.next) return; // seen already
    if (c.offset > this.next) await this.fill(this.next, c.offset);
    if (this.disposed) return;
    this.accept(c);
  }

  /** Emits the part of c at or after next. */
  private accept(c: Chunk) {
    if (c.nextOffset <= this.next) return;
    if (c.offset > this.next) {
      this.emit({ kind: "skipped", bytes: c.offset - this.next });
      this.emit({ kind: "data", data: c.data });
    } else {
      this.emit({ kind: "data", data: dropBytes(c.data, this.next - c.offset) });
    }
    this.next = c.nextOffset;
  }

  /** Fetches bytes [from, to) back from the ring buffer, oldest first. */
  private async fill(from: number, to: number) {
    if (!this.fetchGaps()) {
      this.emit({ kind: "skipped", bytes: to - from });
      this.next = to;
      return;
    }
    if (to - from > this.maxGapFetch) {
      this.emit({ kind: "skipped", bytes: to - from - this.maxGapFetch });
      from = to - this.maxGapFetch;
      this.next = from;
    }
    while (from < to) {
      const page = await this.io.fetch(from, Math.min(to - from, this.pageSize));
      if (this.disposed) return;
      if (page.offset >= to || page.nextOffset <= page.offset) break; // nothing left of the gap
      if (page.offset > from) this.emit({ kind: "skipped", bytes: page.offset - from });
      const end = Math.min(page.nextOffset, to);
      this.emit({ kind: "data", data: end < page.nextOffset ? takeBytes(page.data, end - page.offset) : page.data });
      from = end;
      this.next = end;
    }
    if (from < to) {
      this.emit({ kind: "skipped", bytes: to - from });
      this.next = to;
    }
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The text after its first n UTF-8 bytes. */
export function dropBytes(s: string, n: number): string {
  if (n <= 0) return s;
  const b = encoder.encode(s);
  return n >= b.length ? "" : decoder.decode(b.subarray(n));
}

/** The text of its first n UTF-8 bytes. */
export function takeBytes(s: string, n: number): string {
  const b = encoder.encode(s);
  return n >= b.length ? s : decoder.decode(b.subarray(0, Math.max(0, n)));
}
