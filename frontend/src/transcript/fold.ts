// Folds the event stream into transcript items exactly as the Go side does
// (internal/session/state.go), so a Snapshot() and the events after its
// lastSeq give the same picture as the events alone.
import type { ApprovalRequestedPayload, BudgetState, ChildTranscript, GatehouseEvent, QuestionAskedPayload, Snapshot, TeamState, TranscriptItem } from "../bridge";
import { foldTeam, isTeamEvent, teamItems } from "../team/fold";

export interface Transcript {
  sessionId: string;
  /** The running turn; "" while idle. */
  turnId: string;
  items: readonly TranscriptItem[];
  lastSeq: number;
  /** Approval requests waiting for an answer, oldest first. */
  pendingApprovals: readonly ApprovalRequestedPayload[];
  /** Subagents' transcripts by the call that started each (events' parentCallId). */
  children: Readonly<Record<string, ChildTranscript>>;
  /** The session's spending against its limits, as the backend metered it. */
  budget?: BudgetState;
  /** MCP servers' questions waiting for the user (its subagents' too), oldest first. */
  pendingQuestions?: readonly QuestionAskedPayload[];
  /** The session's agent team; absent while teams are off. */
  team?: TeamState;
}

export const emptyTranscript: Transcript = { sessionId: "", turnId: "", items: [], lastSeq: 0, pendingApprovals: [], children: {} };

export function fromSnapshot(s: Snapshot): Transcript {
  return {
    sessionId: s.sessionId, turnId: s.turnId, items: s.transcript ?? [], lastSeq: s.lastSeq, pendingApprovals: s.pendingApprovals ?? [],
    children: s.children ?? {}, budget: s.budget, pendingQuestions: s.pendingQuestions ?? [], team: s.team,
  };
}

function hasCall(items: readonly TranscriptItem[] | null | undefined, id: string): boolean {
  return !!items && find(items, "tool", id) >= 0;
}

/**
 * foldChild folds a subagent's event into the transcript kept under the
 * call that started it, as session/state.go's emitChild does: a child of a
 * call this transcript (or one of its children) does not know is ignored.
 */
function foldChild(t: Transcript, e: GatehouseEvent, lastSeq: number): Transcript {
  const call = e.parentCallId!;
  const prev = t.children[call];
  if (!prev && !hasCall(t.items, call) && !Object.values(t.children).some((c) => hasCall(c.items, call))) return { ...t, lastSeq };
  const sub: Transcript = {
    sessionId: prev?.sessionId || e.sessionId, turnId: prev?.turnId ?? "", items: prev?.items ?? [], lastSeq: 0, pendingApprovals: [], children: {},
  };
  const next = fold(sub, { ...e, parentCallId: undefined, agent: undefined } as GatehouseEvent);
  const child: ChildTranscript = { sessionId: next.sessionId, agent: e.agent ?? prev?.agent ?? "", turnId: next.turnId, items: [...next.items] };
  return { ...t, lastSeq, children: { ...t.children, [call]: child } };
}

function find(items: readonly TranscriptItem[], kind: TranscriptItem["kind"], id: string): number {
  // Items still changing are near the end: search backwards.
  for (let i = items.length - 1; i >= 0; i--) {
    if (items[i].kind === kind && items[i].id === id) return i;
  }
  return -1;
}

function replace(items: readonly TranscriptItem[], i: number, it: TranscriptItem): TranscriptItem[] {
  const next = items.slice();
  next[i] = it;
  return next;
}

/**
 * fold applies one event and returns the new transcript; it returns t itself
 * (apart from lastSeq) when the event does not change the items. It never
 * mutates t, so React can compare items by identity.
 */
export function fold(t: Transcript, e: GatehouseEvent): Transcript {
  const lastSeq = Math.max(t.lastSeq, e.seq);
  if ((e.type === "question.asked" || e.type === "question.resolved") && (e.parentCallId || e.sessionId === t.sessionId)) {
    // A server's question waits in the session's window, a subagent's too.
    const rest = (t.pendingQuestions ?? []).filter((q) => q.questionId !== e.payload.questionId);
    return { ...t, lastSeq, pendingQuestions: e.type === "question.asked" ? [...rest, e.payload] : rest };
  }
  if (e.parentCallId) return foldChild(t, e, lastSeq);
  let sessionId = t.sessionId;
  let items = t.items;
  if (e.sessionId !== "" && e.sessionId !== sessionId) {
    // A turn in another session: the first turn of a new session (the app
    // opened one), or a stray event of a closed one, which is ignored.
    if (e.type !== "turn.started") return { ...t, lastSeq };
    sessionId = e.sessionId;
    items = [];
    t = { ...t, pendingApprovals: [], children: {}, budget: undefined, pendingQuestions: [], team: undefined };
  }
  const base = { ...t, sessionId, items, lastSeq };
  if (isTeamEvent(e)) return { ...base, team: foldTeam(t.team, e), items: teamItems(items, e) };
  switch (e.type) {
    case "turn.started":
      return { ...base, turnId: e.turnId, items: [...items, { kind: "user", id: e.turnId, turnId: e.turnId, text: e.payload.prompt, images: e.payload.images }] };
    case "message.delta": {
      const p = e.payload;
      const i = find(items, "assistant", p.messageId);
      if (i >= 0) return { ...base, items: replace(items, i, { ...items[i], text: (items[i].text ?? "") + p.text }) };
      return { ...base, items: [...items, { kind: "assistant", id: p.messageId, turnId: e.turnId, text: p.text, streaming: true }] };
    }
    case "message.done": {
      const p = e.payload;
      const i = find(items, "assistant", p.messageId);
      const prev: TranscriptItem = i >= 0 ? items[i] : { kind: "assistant", id: p.messageId, turnId: e.turnId };
      const it: TranscriptItem = { ...prev, text: p.text, streaming: false, cancelled: p.cancelled };
      return { ...base, items: i >= 0 ? replace(items, i, it) : [...items, it] };
    }
    case "tool.started": {
      const p = e.payload;
      return { ...base, items: [...items, { kind: "tool", id: p.callId, turnId: e.turnId, tool: p.tool, args: p.args, running: true }] };
    }
    case "tool.progress": {
      const p = e.payload;
      const i = find(items, "tool", p.callId);
      if (i < 0 || !items[i].running) return base;
      return { ...base, items: replace(items, i, { ...items[i], progress: p }) };
    }
    case "tool.finished": {
      const p = e.payload;
      const i = find(items, "tool", p.callId);
      const prev: TranscriptItem = i >= 0 ? items[i] : { kind: "tool", id: p.callId, turnId: e.turnId, tool: p.tool, args: {} };
      const it: TranscriptItem = { ...prev, running: false, result: p.result, isError: p.isError, durationMs: p.durationMs, waitMs: p.waitMs, throttledMs: p.throttledMs, approval: p.approval, images: p.images, hooks: p.hooks, rewrite: p.rewrite };
      delete it.progress; // a fresh object: the progress of a running call only
      return { ...base, items: i >= 0 ? replace(items, i, it) : [...items, it] };
    }
    case "turn.stopped": {
      const p = e.payload;
      const it: TranscriptItem = { kind: "stop", turnId: e.turnId, reason: p.reason, error: p.error, errorKind: p.errorKind, usage: p.usage, model: p.model, context: p.context, blocked: p.blocked, plan: p.plan, cost: p.cost, budget: p.budget };
      return { ...base, turnId: "", items: [...items, it] };
    }
    case "context.compacted": {
      const p = e.payload;
      const it: TranscriptItem = { kind: "compaction", id: p.compactionId, turnId: e.turnId, text: p.summary, compaction: p.compaction, context: p.context };
      return { ...base, items: [...items, it] };
    }
    case "context.compaction_undone": {
      const p = e.payload;
      const i = find(items, "compaction", p.compactionId);
      if (i < 0 || !items[i].compaction) return base;
      return { ...base, items: replace(items, i, { ...items[i], compaction: { ...items[i].compaction!, undone: true }, context: p.context }) };
    }
    case "approval.requested": {
      // A re-preview repeats the approval id: it replaces the request (and
      // so clears its stale mark).
      const p = e.payload;
      const i = t.pendingApprovals.findIndex((a) => a.approvalId === p.approvalId);
      if (i < 0) return { ...base, pendingApprovals: [...t.pendingApprovals, p] };
      return { ...base, pendingApprovals: t.pendingApprovals.map((a, j) => (j === i ? p : a)) };
    }
    case "approval.stale": {
      const p = e.payload;
      return {
        ...base,
        pendingApprovals: t.pendingApprovals.map((a) =>
          a.approvalId !== p.approvalId ? a : { ...a, stale: [...new Set([...(a.stale ?? []), ...(p.paths ?? [])])] }),
      };
    }
    case "approval.diagnostics": {
      const p = e.payload;
      return { ...base, pendingApprovals: t.pendingApprovals.map((a) => (a.approvalId !== p.approvalId ? a : { ...a, diagnostics: p })) };
    }
    case "approval.resolved":
      return { ...base, pendingApprovals: t.pendingApprovals.filter((a) => a.approvalId !== e.payload.approvalId) };
    case "undo.applied":
      return { ...base, items: [...items, { kind: "undo", id: e.payload.unit, turnId: e.turnId, undo: e.payload }] };
    case "budget.updated":
      return { ...base, budget: e.payload };
    case "mcp.waiting":
      return { ...base, items: [...items, { kind: "mcp_waiting", turnId: e.turnId, servers: e.payload.servers ?? [] }] };
    default:
      // Processes and file events have their own views.
      return base;
  }
}
