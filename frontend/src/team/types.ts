// The team's shapes as the window uses them.
export type TeammateState = "working" | "waiting" | "idle" | "stopped";

export interface Teammate {
  name: string;
  agent: string;
  state: TeammateState;
  /** What it works on now, in a few words. */
  task?: string;
  /** Why it stopped, when it did. */
  reason?: string;
}

export interface TeamTask {
  id: string;
  title: string;
  status: string;
  owner?: string;
  deps?: string[];
  note?: string;
}

export interface TeamMessage {
  from: string;
  to: string;
  text: string;
}

export interface TeamView {
  teammates: Teammate[];
  tasks: TeamTask[];
  messages: TeamMessage[];
}
