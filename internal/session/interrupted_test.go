package session

import (
	"testing"

	"gatehouse/internal/protocol"
)

func TestInterruptedClosesOnlyAnUnfinishedLastTurn(t *testing.T) {
	user := func(turn string) protocol.TranscriptItem {
		return protocol.TranscriptItem{Kind: protocol.ItemUser, TurnID: turn, Text: "go"}
	}
	said := func(turn string) protocol.TranscriptItem {
		return protocol.TranscriptItem{Kind: protocol.ItemAssistant, ID: turn + "-m", TurnID: turn, Text: "ok"}
	}
	for _, c := range []struct {
		name  string
		items []protocol.TranscriptItem
		want  string // turn closed, "" for none
	}{
		{"empty", nil, ""},
		{"every turn stopped", []protocol.TranscriptItem{user("s-t1"), said("s-t1"), stopItem("s-t1"), user("s-t2"), stopItem("s-t2")}, ""},
		{"cut after the user message", []protocol.TranscriptItem{user("s-t1"), stopItem("s-t1"), user("s-t2")}, "s-t2"},
		{"cut after a reply", []protocol.TranscriptItem{user("s-t1"), said("s-t1")}, "s-t1"},
		{"an earlier turn's stop does not count", []protocol.TranscriptItem{user("s-t1"), stopItem("s-t1"), user("s-t2"), said("s-t2")}, "s-t2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			it, ok := Interrupted(c.items)
			if ok != (c.want != "") {
				t.Fatalf("ok = %v, want a stop for %q", ok, c.want)
			}
			if !ok {
				return
			}
			if it.Kind != protocol.ItemStop || it.TurnID != c.want || it.Reason != protocol.StopError ||
				it.ErrorKind != ErrorKindInterrupted || it.Error == "" || it.Usage == nil {
				t.Fatalf("stop item %+v", it)
			}
			// Closed, the turn is history: nothing more to add.
			if _, again := Interrupted(append(c.items, it)); again {
				t.Fatal("a closed turn was closed again")
			}
		})
	}
}
