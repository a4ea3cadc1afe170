package approval

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestTerminalQuestion(t *testing.T) {
	var out bytes.Buffer
	term := NewTerminal(strings.NewReader("7\n2\n"), &out)
	got, err := term.Question(context.Background(), "Which port?\x1b[2J", []string{"8080", "9090"})
	if err != nil || got != "9090" {
		t.Fatalf("answer %q, %v", got, err)
	}
	if s := out.String(); strings.Contains(s, "\x1b") || !strings.Contains(s, "[2] 9090") || !strings.Contains(s, "number from 1 to 2") {
		t.Errorf("terminal showed %q", s)
	}
	free := NewTerminal(strings.NewReader("\nport 7000\n"), &out)
	if got, err := free.Question(context.Background(), "Which port?", nil); err != nil || got != "port 7000" {
		t.Fatalf("free answer %q, %v", got, err)
	}
	if _, err := NewTerminal(strings.NewReader(""), &out).Question(context.Background(), "?", nil); err == nil {
		t.Error("an ended input answered")
	}
}
