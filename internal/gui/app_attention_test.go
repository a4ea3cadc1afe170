package gui

import (
	"context"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

type recordingNotifier chan [2]string

func (r recordingNotifier) Notify(_ context.Context, summary, body string) error {
	r <- [2]string{summary, body}
	return nil
}

// waitsNow lists the summaries of what waits.
func (at *attention) waitsNow() []string {
	at.mu.Lock()
	defer at.mu.Unlock()
	out := make([]string, 0, len(at.waits))
	for _, s := range at.waits {
		out = append(out, s.summary)
	}
	return out
}

// waitTitle polls the title the window would have until it is want.
func waitTitle(t *testing.T, app *App, want string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for app.attention.title("proj") != want {
		if time.Now().After(deadline) {
			t.Fatalf("title %q, want %q", app.attention.title("proj"), want)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestAttentionFollowsTheBackendsEvents: the page reports only the focus.
// An approval the gate publishes while the window is unfocused marks the
// title and notifies once, with the call's summary; its resolution clears
// the mark; focusing the window clears it too, and so does a question
// (ask_user) answered; a wait that starts focused does not notify.
func TestAttentionFollowsTheBackendsEvents(t *testing.T) {
	app, _ := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "write_file", Arguments: llmtest.Text(`{"path":"a.txt","content":"one"}`)}}},
		{Text: llmtest.Text("done")},
		{ToolCalls: []llmtest.ToolCall{{ID: "c2", Name: "ask_user", Arguments: llmtest.Text(`{"question":"Which one?"}`)}}},
		{Text: llmtest.Text("done")},
	}})
	sent := make(recordingNotifier, 4)
	app.attention.notifier = sent
	const marked = "● proj (waiting for you)"
	if _, err := app.SetApprovalMode("manual"); err != nil {
		t.Fatal(err)
	}
	app.SetWindowFocused(false)
	if got := app.attention.title("proj"); got != "proj" {
		t.Fatalf("title with nothing waiting = %q", got)
	}
	if _, err := app.Submit(protocol.Submission{Text: "write"}); err != nil {
		t.Fatal(err)
	}
	req := waitApproval(t, app)
	waitTitle(t, app, marked)
	select {
	case n := <-sent:
		if n[0] != "Gatehouse is waiting for you" || n[1] != req.Preview.Summary {
			t.Fatalf("notification %q", n)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no notification")
	}
	app.SetWindowFocused(true)
	waitTitle(t, app, "proj")
	app.SetWindowFocused(false)
	waitTitle(t, app, marked)
	if err := app.ResolveApproval(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce}); err != nil {
		t.Fatal(err)
	}
	waitTitle(t, app, "proj")
	waitIdle(t, app)

	// A question asked while focused: marked once the window loses focus.
	app.SetWindowFocused(true)
	if _, err := app.SetApprovalMode("safe"); err != nil { // ask_user reads only: not asked for
		t.Fatal(err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "ask"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(app.attention.waitsNow()) == 0 && time.Now().Before(deadline) {
		time.Sleep(2 * time.Millisecond)
	}
	if got := app.attention.title("proj"); got != "proj" {
		t.Fatalf("title while focused = %q", got)
	}
	app.SetWindowFocused(false)
	waitTitle(t, app, marked)
	for err := app.AnswerQuestion("c2", "the first"); err != nil; err = app.AnswerQuestion("c2", "the first") {
		if time.Now().After(deadline) {
			t.Fatal(err)
		}
		time.Sleep(2 * time.Millisecond)
	}
	waitTitle(t, app, "proj")
	waitIdle(t, app)
	// One notification per wait that started: the approval's twice (it was
	// focused between), the question's once.
	for i := 0; i < 2; i++ {
		select {
		case <-sent:
		case <-time.After(30 * time.Second):
			t.Fatalf("notification %d of 3 missing", i+2)
		}
	}
	select {
	case n := <-sent:
		t.Fatalf("extra notification %q", n)
	case <-time.After(50 * time.Millisecond):
	}
}
