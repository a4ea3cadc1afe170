// The team's shapes, as internal/protocol/team.go defines them (until the
// generated bridge types carry them).
export type TeammateState = "working" | "waiting" | "idle" | "stopped";

export interface Teammate {
  name: string;
  agent: string;
  state: TeammateState;
  task: string;
  callId: string;
  sessionId: string;
  reason?: string;
  approvalId?: string;
  turns: number;
  wakes: number;
  worktree?: string;
}

export type TeamTaskStatus = "open" | "in_progress" | "blocked" | "done";

export interface TeamTask {
  id: string;
  title: string;
  status: TeamTaskStatus;
  owner?: string;
  dependsOn?: string[];
  notes?: string[];
  updatedBy?: string;
}

export interface TeamMessage {
  id: string;
  from: string;
  to: string;
  text: string;
}

export type TeamNoticeKind = "cap" | "mutual_wait" | "budget" | "stopped";

export interface TeamNotice {
  kind: TeamNoticeKind;
  text: string;
  names?: string[];
}

export interface TeamBoardPayload {
  tasks: TeamTask[] | null;
  taskId?: string;
  by?: string;
}

export interface TeamState {
  enabled: boolean;
  maxTeammates: number;
  teammates: Teammate[] | null;
  board: TeamTask[] | null;
  messages: TeamMessage[] | null;
  notices: TeamNotice[] | null;
}
