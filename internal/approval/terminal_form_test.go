package approval

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools/steer"
)

func TestTerminalFormAsksEachFieldAndChecksIt(t *testing.T) {
	max := 10.0
	f := steer.Form{QuestionID: "q1", Server: "tickets\x1b[2J", Workspace: true, Message: "Which ticket?", Fields: []protocol.FormField{
		{Name: "id", Type: protocol.FieldInteger, Required: true, Max: &max},
		{Name: "prio", Type: protocol.FieldEnum, Options: []protocol.FormOption{{Value: "lo", Title: "Low"}, {Value: "hi", Title: "High"}}},
		{Name: "note", Type: protocol.FieldString},
		{Name: "urgent", Type: protocol.FieldBoolean, Default: false},
	}}
	var out bytes.Buffer
	// "x" is not an answer; 42 is over 10; then 7, choice 2, no note, the default.
	term := NewTerminal(strings.NewReader("x\na\n42\n7\n2\n\n\n"), &out)
	a, err := term.Form(context.Background(), f)
	if err != nil || a.Action != protocol.AnswerAccept {
		t.Fatalf("%+v %v", a, err)
	}
	if a.Content["id"] != int64(7) || a.Content["prio"] != "hi" || a.Content["urgent"] != false || a.Content["note"] != nil {
		t.Fatalf("values %#v", a.Content)
	}
	s := out.String()
	if strings.Contains(s, "\x1b") || !strings.Contains(s, "MCP server tickets\\e[2J (from the workspace) asks: Which ticket?") || !strings.Contains(s, "at most 10") {
		t.Errorf("terminal showed %q", s)
	}
	if a, err := NewTerminal(strings.NewReader("d\n"), &out).Form(context.Background(), f); err != nil || a.Action != protocol.AnswerDecline {
		t.Fatalf("decline: %+v %v", a, err)
	}
	if _, err := NewTerminal(strings.NewReader(""), &out).Form(context.Background(), f); err == nil {
		t.Error("an ended input answered")
	}
}
