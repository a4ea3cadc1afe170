// FrameWriter hands text to a terminal at most once per animation frame, one
// batch at a time: the next batch waits until the terminal has parsed the
// previous one (xterm's write callback). When the terminal falls behind a
// flood, the oldest pending text is dropped and replaced by a marker, so
// memory stays bounded and the page stays responsive.

export type Sink = (data: string, done: () => void) => void;

export interface FrameWriterOptions {
  /** Pending characters kept at most while the terminal is busy. */
  maxPending?: number;
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
  private readonly maxPending: number;
  private readonly marker: (chars: number) => string;
  private readonly requestFrame: (cb: () => void) => unknown;

  constructor(private sink: Sink, opts: FrameWriterOptions = {}) {
    this.maxPending = opts.maxPending ?? 4 << 20;
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
    let data = this.pending.join("");
    if (this.dropped) {
      data = this.marker(this.dropped) + data;
      this.dropped = 0;
    }
    this.pending = [];
    this.pendingChars = 0;
    this.inFlight = true;
    this.sink(data, () => {
      this.inFlight = false;
      this.schedule();
    });
  }
}
