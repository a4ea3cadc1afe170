// The Team panel's picture of a session's team, derived from what the
// backend keeps (teammates, the board, the messages) and from the approvals
// waiting: a teammate whose call waits for an answer is "waiting for you"
// whatever state it last reported, so the panel never says "working" while
// the work is held by a dialog.
import type { ApprovalRequestedPayload, TeamTask, Teammate } from "../bridge";

/** How a teammate stands, in the panel's four words. */
export type TeammateShown = "working" | "waiting for you" | "idle" | "stopped";

/** A teammate as a row shows it: its state in words and the approvals it waits on, oldest first. */
export interface TeammateRow {
  mate: Teammate;
  shown: TeammateShown;
  waiting: readonly ApprovalRequestedPayload[];
}

/** Whether request a is teammate m's: its own calls are labelled with its name, its subagents' "name › agent". */
export function asks(m: Teammate, a: ApprovalRequestedPayload): boolean {
  return a.approvalId === m.approvalId || a.agent === m.name || !!a.agent?.startsWith(`${m.name} › `);
}

/** The rows of the roster, in the order the teammates were spawned. */
export function teammateRows(mates: readonly Teammate[], pending: readonly ApprovalRequestedPayload[]): TeammateRow[] {
  return mates.map((mate) => {
    const waiting = pending.filter((a) => asks(mate, a));
    return { mate, shown: shownState(mate, waiting.length > 0), waiting };
  });
}

function shownState(m: Teammate, asking: boolean): TeammateShown {
  if (m.state === "stopped") return "stopped";
  if (asking || m.state === "waiting") return "waiting for you";
  return m.state === "working" ? "working" : "idle";
}

/** The mark beside a state's word (never colour alone). */
export function stateIcon(s: TeammateShown): string {
  return { working: "●", "waiting for you": "◆", idle: "○", stopped: "■" }[s];
}

/** A board column: the tasks of one status, in the board's order. */
export interface BoardColumn {
  status: string;
  title: string;
  tasks: TeamTask[];
}

const COLUMN_ORDER = ["open", "in_progress", "blocked", "done"];
const COLUMN_TITLE: Record<string, string> = { open: "Open", in_progress: "In progress", blocked: "Blocked", done: "Done" };

/**
 * The board as columns: open, in progress and done always (an empty one
 * says so), blocked when a task is, then any other status the backend
 * reports, each titled in words.
 */
export function boardColumns(tasks: readonly TeamTask[]): BoardColumn[] {
  const statuses = new Set<string>(["open", "in_progress", "done", ...tasks.map((t) => t.status)]);
  const known = COLUMN_ORDER.filter((s) => statuses.has(s));
  const other = [...statuses].filter((s) => !COLUMN_ORDER.includes(s)).sort();
  return [...known, ...other].map((status) => ({
    status, title: COLUMN_TITLE[status] ?? words(status), tasks: tasks.filter((t) => t.status === status),
  }));
}

/** The tasks a task still waits on: its dependencies not done yet (an unknown id counts as not done). */
export function openDeps(t: TeamTask, all: readonly TeamTask[]): string[] {
  return (t.dependsOn ?? []).filter((d) => all.find((o) => o.id === d)?.status !== "done");
}

/** "in_progress" → "in progress". */
export function words(s: string): string {
  return s.replaceAll("_", " ");
}

