package session

import (
	"strings"
	"testing"

	"gatehouse/internal/protocol"
)

func TestDigestKeepsTheSummaryAndTheLatestTurns(t *testing.T) {
	say := func(turn, text string) protocol.TranscriptItem {
		return protocol.TranscriptItem{Kind: protocol.ItemAssistant, ID: turn + "-m", TurnID: turn, Text: text}
	}
	l := &Loaded{Meta: Meta{Title: "fix the cache"}, Items: []protocol.TranscriptItem{
		userItem("t1", "before the summary"), say("t1", "old answer"),
		{Kind: protocol.ItemCompaction, ID: "c1", Text: "We found the cache key omits the locale.", Compaction: &protocol.Compaction{}},
		userItem("t2", "add the locale"), say("t2", "a wrong answer"),
		{Kind: protocol.ItemUser, ID: "t3", TurnID: "t3", Text: "add the locale", Replaces: "t2"}, say("t3", "Added it. "+strings.Repeat("x", 300)),
		{Kind: protocol.ItemTool, ID: "call_1", TurnID: "t3", Tool: "bash", Result: []byte(`{"stdout":"tool output"}`)},
		userItem("t4", "and a test"), say("t4", "long"),
	}}
	d := Digest(l, 10000)
	for _, want := range []string{`Session "fix the cache"`, "We found the cache key omits the locale.", "User: add the locale\nAssistant: Added it. x", "Assistant: long"} {
		if !strings.Contains(d, want) {
			t.Errorf("digest lacks %q:\n%s", want, d)
		}
	}
	for _, not := range []string{"before the summary", "a wrong answer", "tool output"} {
		if strings.Contains(d, not) {
			t.Errorf("digest holds %q:\n%s", not, d)
		}
	}
	short := Digest(l, 250)
	if !strings.Contains(short, "(1 earlier turns left out for length)") || strings.Contains(short, "Added it.") ||
		!strings.Contains(short, "We found") || !strings.Contains(short, "Assistant: long") {
		t.Errorf("cut digest:\n%s", short)
	}
}
