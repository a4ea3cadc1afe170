package session

import (
	"testing"

	"gatehouse/internal/protocol"
)

// A message between team members that the lead did not send becomes an item
// of the lead's transcript, once, and is logged; the lead's own is its
// team_message call, never a second item; a message to another session is
// not this one's.
func TestTeamMessagesAreItemsOfTheLeadsTranscript(t *testing.T) {
	var logged []protocol.TranscriptItem
	s := NewState("lead", nil, func(it protocol.TranscriptItem) { logged = append(logged, it) })
	msg := func(seq uint64, session, id, from, to string) protocol.Event {
		return protocol.Event{Seq: seq, SessionID: session, TurnID: "t1", Type: protocol.TeamMessageSent,
			Payload: protocol.TeamMessage{ID: id, From: from, To: to, Text: from + " says hi"}}
	}
	s.Emit(msg(1, "lead", "m1", "writer", "lead"))
	s.Emit(msg(2, "lead", "m2", protocol.TeamLead, "writer"))
	s.Emit(msg(3, "lead", "m3", "writer", "checker"))
	s.Emit(msg(4, "lead", "m1", "writer", "lead"))
	s.Emit(msg(5, "other", "m9", "a", "lead"))
	snap := s.Snapshot()
	var got []string
	for _, it := range snap.Transcript {
		if it.Kind != protocol.ItemTeamMessage || it.Message == nil || it.ID != it.Message.ID || it.TurnID != "t1" {
			t.Fatalf("item %+v", it)
		}
		got = append(got, it.Message.From+"→"+it.Message.To+": "+it.Message.Text)
	}
	if want := []string{"writer→lead: writer says hi", "writer→checker: writer says hi"}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("items %q, want %q", got, want)
	}
	if len(logged) != 2 {
		t.Fatalf("logged %d items, want 2", len(logged))
	}
}

// A request still waiting when the session's turn stops (a teammate's, a
// background subagent's: they ask through the session's gate after its
// turn) stays in the snapshot until its approval.resolved, as the page's
// fold keeps it: a snapshot and the events after it show what the events
// alone show.
func TestPendingRequestOutlivesTheTurnItWasAskedIn(t *testing.T) {
	s := NewState("lead", nil, nil)
	s.Emit(protocol.Event{Seq: 1, SessionID: "lead", TurnID: "t1", Type: protocol.TurnStarted, Payload: protocol.TurnStartedPayload{Prompt: "go"}})
	s.Emit(protocol.Event{Seq: 2, SessionID: "lead", TurnID: "t1", Type: protocol.ApprovalRequested,
		Payload: protocol.ApprovalRequestedPayload{ApprovalID: "a1", CallID: "w1", Tool: "write_file", Agent: "writer"}})
	s.Emit(protocol.Event{Seq: 3, SessionID: "lead", TurnID: "t1", Type: protocol.TurnStopped, Payload: protocol.TurnStoppedPayload{Reason: protocol.StopCompleted}})
	if got := s.Snapshot().PendingApprovals; len(got) != 1 || got[0].ApprovalID != "a1" {
		t.Fatalf("after the turn stopped, pending %+v", got)
	}
	s.Emit(protocol.Event{Seq: 4, SessionID: "lead", Type: protocol.ApprovalResolved, Payload: protocol.ApprovalResolvedPayload{ApprovalID: "a1"}})
	if got := s.Snapshot().PendingApprovals; len(got) != 0 {
		t.Fatalf("after its approval.resolved, pending %+v", got)
	}
}
