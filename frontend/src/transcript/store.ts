// The transcript store: the Snapshot() at start, then every event folded in
// seq order. seq is gap-free, so a gap means an event is late or lost:
// events after the gap wait a moment for it (the bridge may deliver events
// out of order), and when it does not come the store calls Snapshot() again
// and drops the events the snapshot already holds.
import type { GatehouseEvent, Snapshot } from "../bridge";
import { emptyTranscript, fold, fromSnapshot, type Transcript } from "./fold";

/** How long events after a gap wait for the late ones before the snapshot is loaded again. */
const lateEventWait = 300;

/** What the store needs of the backend. */
export interface TranscriptSource {
  snapshot(): Promise<Snapshot>;
  onEvent(handler: (e: GatehouseEvent) => void): () => void;
  queued(): Promise<string[]>;
}

export interface TranscriptView extends Transcript {
  /** False until the first snapshot has loaded. */
  loaded: boolean;
  /** Messages waiting for the running turn to stop, oldest first. */
  queued: readonly string[];
  /** Why the last Snapshot() failed, until one succeeds. */
  error?: string;
}

export class TranscriptStore {
  private view: TranscriptView = { ...emptyTranscript, loaded: false, queued: [] };
  private listeners = new Set<() => void>();
  private unsubscribe: (() => void) | null = null;
  /** Events that arrived while a snapshot was loading. */
  private pending: GatehouseEvent[] | null = null;
  /** Events after a gap, waiting (by seq) for the ones before them. */
  private early = new Map<number, GatehouseEvent>();
  private earlyTimer: ReturnType<typeof setTimeout> | null = null;
  private syncs = 0;
  private queuedAsks = 0;
  /** Sessions open in tabs not shown: their events only advance lastSeq. */
  private background: ReadonlySet<string> = new Set();

  constructor(private readonly source: TranscriptSource) {}

  /** Subscribes to events and loads the snapshot. Returns stop. */
  start(): () => void {
    if (!this.unsubscribe) {
      this.unsubscribe = this.source.onEvent((e) => this.receive(e));
      void this.resync();
    }
    return () => this.stop();
  }

  stop() {
    this.unsubscribe?.();
    this.unsubscribe = null;
    if (this.earlyTimer) clearTimeout(this.earlyTimer);
    this.earlyTimer = null;
    this.early.clear();
  }

  get = (): TranscriptView => this.view;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * Names the sessions of the tabs not shown: their events go on (seq is
   * global) but are not folded, so a background turn never takes over the
   * transcript shown.
   */
  setBackground(ids: Iterable<string>) {
    this.background = new Set(ids);
  }

  private fold(t: Transcript, e: GatehouseEvent): Transcript {
    // The session shown is never background, even before the tab list says so.
    const theirs = e.sessionId && e.sessionId !== t.sessionId && this.background.has(e.sessionId);
    return theirs ? { ...t, lastSeq: Math.max(t.lastSeq, e.seq) } : fold(t, e);
  }

  /** Shows text as queued until its turn starts, then asks the backend for its queue. */
  addQueued(text: string) {
    this.set({ ...this.view, queued: [...this.view.queued, text] });
    void this.refreshQueued();
  }

  /** Reloads the transcript from Snapshot(); events meanwhile are held and replayed. */
  async resync(): Promise<void> {
    const n = ++this.syncs;
    this.pending ??= [];
    let snap: Snapshot;
    try {
      snap = await this.source.snapshot();
    } catch (err) {
      if (n !== this.syncs) return;
      // Events held meanwhile are lost; the next one shows a gap and retries.
      this.pending = null;
      this.set({ ...this.view, error: `Could not load the conversation: ${String(err)}` });
      return;
    }
    if (n !== this.syncs) return; // a later resync owns the result
    const held = (this.pending ?? []).sort((a, b) => a.seq - b.seq);
    this.pending = null;
    let t = fromSnapshot(snap);
    for (const e of held) if (e.seq === t.lastSeq + 1) t = this.fold(t, e);
    this.set({ ...this.view, ...t, loaded: true, error: undefined });
    if (held.some((e) => e.seq > t.lastSeq)) void this.resync();
    void this.refreshQueued();
  }

  private async refreshQueued() {
    const n = ++this.queuedAsks;
    try {
      const q = await this.source.queued();
      if (n === this.queuedAsks) this.set({ ...this.view, queued: q });
    } catch {
      // Keep what is shown; the next turn.started refreshes it.
    }
  }

  private receive(e: GatehouseEvent) {
    if (this.pending) {
      this.pending.push(e);
      return;
    }
    const v = this.view;
    if (e.seq <= v.lastSeq) return; // already folded (or in the snapshot)
    if (e.seq !== v.lastSeq + 1) {
      this.early.set(e.seq, e);
      this.earlyTimer ??= setTimeout(() => this.giveUpWaiting(), lateEventWait);
      return;
    }
    this.apply(e);
    for (let next = this.early.get(this.view.lastSeq + 1); next; next = this.early.get(this.view.lastSeq + 1)) {
      this.early.delete(next.seq);
      this.apply(next);
    }
    for (const seq of this.early.keys()) if (seq <= this.view.lastSeq) this.early.delete(seq);
    if (this.early.size === 0 && this.earlyTimer) {
      clearTimeout(this.earlyTimer);
      this.earlyTimer = null;
    }
  }

  /** The events before the early ones did not come: load the snapshot, then replay what it lacks. */
  private giveUpWaiting() {
    this.earlyTimer = null;
    if (this.early.size === 0) return;
    const held = [...this.early.values()].sort((a, b) => a.seq - b.seq);
    this.early.clear();
    if (this.pending) {
      this.pending.push(...held);
      return;
    }
    this.pending = held;
    void this.resync();
  }

  private apply(e: GatehouseEvent) {
    const v = this.view;
    let next: TranscriptView = { ...v, ...this.fold(v, e) };
    if (e.type === "turn.started" && !e.parentCallId && e.sessionId === next.sessionId) {
      const i = next.queued.indexOf(e.payload.prompt);
      if (i >= 0) next = { ...next, queued: next.queued.filter((_, j) => j !== i) };
      void this.refreshQueued();
    }
    this.set(next);
  }

  private set(v: TranscriptView) {
    this.view = v;
    for (const l of this.listeners) l();
  }
}
