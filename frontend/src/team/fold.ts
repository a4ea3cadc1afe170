// Folds the team's events into the session's TeamState, as the Go side
// keeps it for Snapshot().team: team.enabled brings the whole state, the
// others change one part of it.
import type { GatehouseEvent, TeamState, TranscriptItem } from "../bridge";

/** The team events' types. */
export type TeamEvent = Extract<GatehouseEvent, { type: `team.${string}` }>;

export function isTeamEvent(e: GatehouseEvent): e is TeamEvent {
  return e.type.startsWith("team.");
}

const off: TeamState = { enabled: false, maxTeammates: 0, teammates: [], board: [], messages: [], notices: [] };

/** The team after e; a change before team.enabled (a missed event) starts from an empty team that is on. */
export function foldTeam(team: TeamState | undefined, e: TeamEvent): TeamState {
  const t = team ?? { ...off, enabled: true };
  switch (e.type) {
    case "team.enabled":
      return e.payload;
    case "team.teammate": {
      const mates = t.teammates ?? [];
      const i = mates.findIndex((m) => m.name === e.payload.name);
      return { ...t, teammates: i < 0 ? [...mates, e.payload] : mates.map((m, j) => (j === i ? e.payload : m)) };
    }
    case "team.message": {
      const msgs = t.messages ?? [];
      if (e.payload.id && msgs.some((m) => m.id === e.payload.id)) return t;
      return { ...t, messages: [...msgs, e.payload] };
    }
    case "team.board":
      return { ...t, board: e.payload.tasks ?? [] };
    case "team.notice":
      return { ...t, notices: [...(t.notices ?? []), e.payload] };
  }
  return t;
}

/**
 * The transcript's items after e: a message the lead did not send (its own
 * are its team_message calls) is an item of its transcript, once, as
 * session/state.go keeps it.
 */
export function teamItems(items: readonly TranscriptItem[], e: TeamEvent): readonly TranscriptItem[] {
  if (e.type !== "team.message" || e.payload.from === "lead") return items;
  if (items.some((it) => it.kind === "team_message" && it.id === e.payload.id)) return items;
  return [...items, { kind: "team_message", id: e.payload.id, turnId: e.turnId, message: e.payload }];
}
