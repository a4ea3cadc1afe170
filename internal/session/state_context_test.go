package session

import (
	"testing"

	"gatehouse/internal/protocol"
)

// The stop item keeps the turn's context use, so the gauge comes back with
// a snapshot and with a resumed session's log.
func TestStopItemKeepsTheContextUse(t *testing.T) {
	var logged []protocol.TranscriptItem
	s := NewState("s1", nil, func(it protocol.TranscriptItem) { logged = append(logged, it) })
	use := &protocol.ContextUse{Tokens: 52_000, Window: 128_000, Trimmed: 2}
	s.Emit(protocol.Event{Seq: 1, SessionID: "s1", TurnID: "s1-t1", Type: protocol.TurnStarted, Payload: protocol.TurnStartedPayload{Prompt: "hi"}})
	s.Emit(protocol.Event{Seq: 2, SessionID: "s1", TurnID: "s1-t1", Type: protocol.TurnStopped,
		Payload: protocol.TurnStoppedPayload{Reason: protocol.StopCompleted, Context: use}})
	items := s.Snapshot().Transcript
	if got := items[len(items)-1].Context; got == nil || *got != *use {
		t.Fatalf("snapshot stop item context %+v", got)
	}
	if got := logged[len(logged)-1].Context; got == nil || *got != *use {
		t.Fatalf("logged stop item context %+v", got)
	}
}
