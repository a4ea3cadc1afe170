package gui

import (
	"context"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
)

type recordingNotifier chan [2]string

func (r recordingNotifier) Notify(_ context.Context, summary, body string) error {
	r <- [2]string{summary, body}
	return nil
}

func TestAttentionMarksTheTitleAndNotifiesOncePerWait(t *testing.T) {
	app, _ := newTestApp(t, llmtest.Script{})
	sent := make(recordingNotifier, 4)
	app.attention.notifier = sent
	if got := app.attention.title("proj — Gatehouse", 0); got != "proj — Gatehouse" {
		t.Fatalf("title while not waiting = %q", got)
	}
	app.SetAttention(true)
	app.SetAttention(true) // repeated: no second notification
	if got := app.attention.title("proj — Gatehouse", 0); got != "● proj — Gatehouse (waiting for you)" {
		t.Fatalf("title while waiting = %q", got)
	}
	select {
	case n := <-sent:
		if n[0] != "Gatehouse is waiting for you" || n[1] == "" {
			t.Fatalf("notification %q", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no notification")
	}
	app.SetAttention(false)
	if got := app.attention.title("x", 0); got != "x" {
		t.Fatalf("title after the wait = %q", got)
	}
	select {
	case n := <-sent:
		t.Fatalf("extra notification %q", n)
	case <-time.After(50 * time.Millisecond):
	}
}
