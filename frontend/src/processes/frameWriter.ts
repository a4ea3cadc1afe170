// FrameWriter hands text to a terminal at most once per animation frame, one
// batch at a time: the next batch waits until the terminal has parsed the
// previous one (xterm's write callback). xterm parses one write in one go, so
// the batch size adapts to keep each parse within a time budget: halved when
// a batch took longer, doubled when a full batch took less than half. When the terminal falls behind a
// flood, the oldest pending text is dropped and replaced by a marker, so
// memory stays bounded and the page stays responsive.

export type Sink = (data: string, done: () => void) => void;

export interface FrameWriterOptions {
  /** Pending characters kept at most while the terminal is busy. */
  maxPending?: number;
  /** Bounds of the characters handed to the terminal per frame. */
  minPerFrame?: number;
  maxPerFrame?: number;
  /** Time one batch may take, write to callback. */
  budgetMs?: number;
  now?: () => number;
  /** The text shown where pending output was dropped. */
  dropMarker?: (chars: number) => string;
  requestFrame?: (cb: () => void) => unknown;
}

export class FrameWriter {
  private pending: string[] = [];
  private pendingChars = 0;
  private dropped = 0;
  private scheduled = false;
  private inFlight = false;
  private disposed = false;
  private waiters: Array<() => void> = [];
  private readonly maxPending: number;
  private readonly minPerFrame: number;
  private readonly maxPerFrame: number;
  private readonly budgetMs: number;
  private readonly now: () => number;
  /** The current batch size, between minPerFrame and maxPerFrame. */
  perFrame: number;
  private readonly marker: (chars: number) => string;
  private readonly requestFrame: (cb: () => void) => unknown;

  constructor(private sink: Sink, opts: FrameWriterOptions = {}) {
    this.maxPending = opts.maxPending ?? 4 << 20;
    this.minPerFrame = opts.minPerFrame ?? 4 << 10;
    this.maxPerFrame = opts.maxPerFrame ?? 256 << 10;
    this.perFrame = Math.min(this.maxPerFrame, Math.max(this.minPerFrame, 32 << 10));
    this.budgetMs = opts.budgetMs ?? 12;
    this.now = opts.now ?? (() => performance.now());
    this.marker = opts.dropMarker ?? ((n) => `\r\n[… ${n} characters dropped …]\r\n`);
    this.requestFrame = opts.requestFrame ?? ((cb) => requestAnimationFrame(cb));
  }

  push(data: string): void {
    if (this.disposed || data === "") return;
    this.pending.push(data);
    this.pendingChars += data.length;
    while (this.pendingChars > this.maxPending && this.pending.length > 1) {
      const old = this.pending.shift()!;
      this.pendingChars -= old.length;
      this.dropped += old.length;
    }
    this.schedule();
  }

  /** Resolves once everything pushed so far has been parsed by the terminal. */
  drained(): Promise<void> {
    if (!this.inFlight && !this.pending.length) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Characters waiting for the next frame. */
  get backlog(): number {
    return this.pendingChars;
  }

  dispose(): void {
    this.disposed = true;
    this.pending = [];
    this.pendingChars = 0;
  }

  private schedule() {
    if (this.scheduled || this.inFlight || this.disposed || !this.pending.length) return;
    this.scheduled = true;
    this.requestFrame(() => this.flush());
  }

  private flush() {
    this.scheduled = false;
    if (this.disposed || !this.pending.length) return;
    const full = this.pendingChars >= this.perFrame;
    let data = this.take();
    if (this.dropped) {
      data = this.marker(this.dropped) + data;
      this.dropped = 0;
    }
    this.inFlight = true;
    const t0 = this.now();
    this.sink(data, () => {
      const took = this.now() - t0;
      if (took > this.budgetMs) this.perFrame = Math.max(this.minPerFrame, this.perFrame >> 1);
      else if (full && took < this.budgetMs / 2) this.perFrame = Math.min(this.maxPerFrame, this.perFrame * 2);
      this.inFlight = false;
      if (!this.pending.length) this.waiters.splice(0).forEach((w) => w());
      this.schedule();
    });
  }

  /** Takes up to perFrame pending characters, oldest first. */
  private take(): string {
    let out = "";
    while (this.pending.length && out.length < this.perFrame) {
      const head = this.pending[0];
      const room = this.perFrame - out.length;
      if (head.length <= room) {
        out += head;
        this.pending.shift();
      } else {
        // Do not split a surrogate pair.
        let cut = room;
        const c = head.charCodeAt(cut - 1);
        if (c >= 0xd800 && c <= 0xdbff) cut--;
        if (cut <= 0) {
          if (out) break;
          cut = 2;
        }
        out += head.slice(0, cut);
        this.pending[0] = head.slice(cut);
      }
    }
    this.pendingChars -= out.length;
    return out;
  }
}
