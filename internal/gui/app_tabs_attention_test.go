package gui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
)

// backgroundTab submits prompt in a first tab, then shows a second tab on
// another folder and waits until the first waits for the user; it returns
// the first tab's folder name.
func backgroundTab(t *testing.T, app *App, prompt string) (string, string) {
	t.Helper()
	wsA := app.State().Workspace
	a := submitSafe(t, app, prompt)
	if err := app.showFolder(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if app.currentSession() == a {
		t.Fatal("the second tab is not shown")
	}
	waitFor(t, "the background tab never waited", func() bool { return tabOf(t, app, a.ID()).Waiting == 1 })
	return filepath.Base(wsA), a.ID()
}

// submitSafe starts prompt in safe mode (write calls ask) and returns the
// shown session.
func submitSafe(t *testing.T, app *App, prompt string) *runtime.Session {
	t.Helper()
	if _, err := app.SetApprovalMode("safe"); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Submit(protocol.Submission{Text: prompt}); err != nil {
		t.Fatal(err)
	}
	return app.currentSession()
}

func expectNotification(t *testing.T, sent recordingNotifier, summary, body string) {
	t.Helper()
	select {
	case n := <-sent:
		if n[0] != summary || !strings.Contains(n[1], body) {
			t.Fatalf("notification %q, want %q with %q", n, summary, body)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("no notification %q", summary)
	}
}

// TestBackgroundSubagentApprovalNotifies: a subagent of a tab not shown
// asks to write a file; the desktop notification names the tab's session
// and the subagent's call, as the session's own agent's does.
func TestBackgroundSubagentApprovalNotifies(t *testing.T) {
	app, ws := newTestApp(t, llmtest.Script{
		When: []llmtest.Rule{
			{LastContains: "task A", Response: llmtest.Response{
				ToolCalls: []llmtest.ToolCall{{ID: "d1", Name: "delegate_writer", Arguments: llmtest.Text(`{"task":"write the note"}`)}}}},
			{LastContains: "write the note", Response: writeCall("w1", "note.txt", "hi", 300)},
		},
	})
	dir := filepath.Join(app.store.Dir(), "agents")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "writer.md"), []byte("---\nname: writer\ndescription: writes\ntools: write_file\n---\n"), 0o644)
	sent := make(recordingNotifier, 4)
	app.attention.notifier = sent
	a := submitSafe(t, app, "task A")
	// The delegation is approved in its own tab; the subagent's call asks
	// once another tab is shown.
	if err := app.ResolveApproval(waitApproval(t, app).ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce}); err != nil {
		t.Fatal(err)
	}
	if err := app.showFolder(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the subagent's approval never waited", func() bool { return tabOf(t, app, a.ID()).Waiting == 1 })
	name := filepath.Base(ws)
	expectNotification(t, sent, "Session "+name+" is waiting for you", "writer › write_file")
}

// TestBackgroundQuestionNotifiesAndCounts: the agent of a tab not shown asks
// the user a question (ask_user): the tab counts it as waiting, and the
// desktop notification names the session and says the question.
func TestBackgroundQuestionNotifiesAndCounts(t *testing.T) {
	app, _ := newTestApp(t, llmtest.Script{
		When: []llmtest.Rule{
			{LastContains: "task Q", Response: llmtest.Response{DelayMs: 200,
				ToolCalls: []llmtest.ToolCall{{ID: "q1", Name: "ask_user", Arguments: llmtest.Text(`{"question":"Which port?","choices":["80","8080"]}`)}}}},
		},
	})
	sent := make(recordingNotifier, 4)
	app.attention.notifier = sent
	name, _ := backgroundTab(t, app, "task Q")
	expectNotification(t, sent, "Session "+name+" is waiting for you", "Which port?")
}

// TestTitleMarksAWaitingBackgroundTab: while the window is not focused, the
// title's "waiting" mark shows for a tab not shown that waits, and goes
// once its approval is answered.
func TestTitleMarksAWaitingBackgroundTab(t *testing.T) {
	app, _ := newTestApp(t, llmtest.Script{
		Responses: []llmtest.Response{{Text: llmtest.Text("done")}},
		When:      []llmtest.Rule{{LastContains: "task A", Response: writeCall("a1", "a.txt", "from A", 200)}},
	})
	app.attention.notifier = make(recordingNotifier, 8)
	app.SetWindowFocused(false)
	_, id := backgroundTab(t, app, "task A")
	if title := app.attention.title("app — Gatehouse"); !strings.Contains(title, "waiting for you") {
		t.Fatalf("title %q while a background tab waits", title)
	}
	app.SetWindowFocused(true)
	if title := app.attention.title("app — Gatehouse"); strings.Contains(title, "waiting") {
		t.Fatalf("title %q in a focused window", title)
	}
	app.SetWindowFocused(false)
	snap, err := app.SwitchTab(id)
	if err != nil {
		t.Fatal(err)
	}
	if err := app.ResolveApproval(snap.PendingApprovals[0].ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if title := app.attention.title("app — Gatehouse"); strings.Contains(title, "waiting") {
		t.Fatalf("title %q once nothing waits", title)
	}
}
