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
