package gui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// waitApproval polls the snapshot until a dialog waits, as the page would
// after an approval.requested event.
func waitApproval(t *testing.T, app *App) protocol.ApprovalRequestedPayload {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if p := app.Snapshot().PendingApprovals; len(p) > 0 {
			return p[0]
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("no approval was requested")
	return protocol.ApprovalRequestedPayload{}
}

// askOver writes "before" to file in ws, then sends prompt in safe mode
// and returns the dialog that waits (the script writes file).
func askOver(t *testing.T, app *App, ws, file, prompt string) protocol.ApprovalRequestedPayload {
	t.Helper()
	if err := os.WriteFile(filepath.Join(ws, file), []byte("before"), 0o644); err != nil {
		t.Fatal(err)
	}
	<-app.files.Load().Live().W.Ready()
	if _, err := app.SetApprovalMode("safe"); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Submit(protocol.Submission{Text: prompt}); err != nil {
		t.Fatal(err)
	}
	return waitApproval(t, app)
}

func lastStop(t *testing.T, app *App) protocol.StopReason {
	t.Helper()
	tr := app.Snapshot().Transcript
	return tr[len(tr)-1].Reason
}

func TestApprovalThroughTheApp(t *testing.T) {
	write := func(id, content string) llmtest.Response {
		return llmtest.Response{ToolCalls: []llmtest.ToolCall{
			{ID: id, Name: "write_file", Arguments: llmtest.Text(`{"path":"a.txt","content":"` + content + `"}`)}}}
	}
	app, ws := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{
		write("c1", "one"), {Text: llmtest.Text("done")}, // turn 1: approved for the session
		write("c2", "two"), {Text: llmtest.Text("done")}, // turn 2: rides on the rule
		{ToolCalls: []llmtest.ToolCall{{ID: "c3", Name: "bash", Arguments: llmtest.Text(`{"action":"exec","command":"touch made"}`)}}}, // turn 3: rejected
	}})
	if _, err := app.SetApprovalMode("safe"); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "write"}); err != nil {
		t.Fatal(err)
	}
	req := waitApproval(t, app)
	if req.Tool != "write_file" || req.Preview.Kind != protocol.PreviewFiles || req.Rule == nil || req.Preview.Files[0].NewContent != "one" {
		t.Fatalf("request %+v", req)
	}
	if err := app.ResolveApproval(req.ApprovalID, protocol.Decision{Kind: "partial", Files: []string{"a.txt"}}); err == nil {
		t.Fatal("partial accepted for write_file")
	}
	// The same request number in another session is not this window's to answer.
	other := strings.Replace(req.ApprovalID, app.currentSession().ID(), "20260101-000000-0badc0de", 1)
	if err := app.ResolveApproval(other, protocol.Decision{Kind: protocol.DecisionOnce}); err == nil || !strings.Contains(err.Error(), "not waiting in this window's session") {
		t.Fatalf("another session's request: %v", err)
	}
	if err := app.ResolveApproval(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionSession}); err != nil {
		t.Fatal(err)
	}
	if err := app.ResolveApproval(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionReject}); err == nil {
		t.Fatal("a second answer was accepted")
	}
	waitIdle(t, app)
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "one" || lastStop(t, app) != protocol.StopCompleted {
		t.Fatalf("file %q, stop %s", b, lastStop(t, app))
	}
	rules := app.ListRules()
	if len(rules) != 1 || rules[0].Files[0] != "a.txt" {
		t.Fatalf("rules %+v", rules)
	}

	if _, err := app.Submit(protocol.Submission{Text: "again"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "two" {
		t.Fatalf("the covered write did not run: %q", b)
	}

	if err := app.RevokeRule(rules[0].ID); err != nil || len(app.ListRules()) != 0 {
		t.Fatalf("revoke: %v", err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "run"}); err != nil {
		t.Fatal(err)
	}
	req = waitApproval(t, app)
	if req.Preview.Command == nil || req.Preview.Command.Command != "touch made" {
		t.Fatalf("request %+v", req)
	}
	if err := app.ResolveApproval(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionReject, Note: "not now"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if lastStop(t, app) != protocol.StopBlockedByApproval {
		t.Fatalf("stop %s", lastStop(t, app))
	}
	if _, err := os.Stat(filepath.Join(ws, "made")); err == nil {
		t.Fatal("the rejected command ran")
	}
	if n := len(app.Snapshot().PendingApprovals); n != 0 {
		t.Fatalf("%d approvals still pending", n)
	}
	// Every decision and rule is in the session log (written in batches
	// off the delivery path: flushed first).
	if err := app.currentSession().FlushLog(); err != nil {
		t.Fatal(err)
	}
	logText, err := os.ReadFile(app.kit.Sessions().Path(app.State().Workspace, app.currentSession().ID()))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"type":"decision"`, `"kind":"rule.added"`, `"kind":"rule.revoked"`, `"note":"not now"`} {
		if !strings.Contains(string(logText), want) {
			t.Errorf("session log lacks %s", want)
		}
	}
}

func TestCancelAndCloseUnblockTheDialog(t *testing.T) {
	call := llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "write_file", Arguments: llmtest.Text(`{"path":"a.txt","content":"x"}`)}}}
	app, ws := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{call, call}})
	if _, err := app.SetApprovalMode("manual"); err != nil {
		t.Fatal(err)
	}
	app.Submit(protocol.Submission{Text: "write"})
	req := waitApproval(t, app)
	app.Cancel()
	waitIdle(t, app)
	if lastStop(t, app) != protocol.StopCancelled || len(app.Snapshot().PendingApprovals) != 0 {
		t.Fatalf("stop %s, pending %d", lastStop(t, app), len(app.Snapshot().PendingApprovals))
	}
	if err := app.ResolveApproval(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce}); err == nil {
		t.Fatal("a cancelled dialog accepted an answer")
	}

	// The session closes (another workspace) while a dialog waits.
	app.Submit(protocol.Submission{Text: "write"})
	waitApproval(t, app)
	done := make(chan struct{})
	go func() { app.shutdown(context.Background()); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("closing the session did not unblock the dialog")
	}
	if _, err := os.Stat(filepath.Join(ws, "a.txt")); err == nil {
		t.Fatal("the file was written")
	}
}

// TestStalePreviewThroughTheApp: the workspace watcher marks a waiting
// preview stale when its file changes; approving is refused until
// RepreviewApproval, whose preview shows the new base and then runs.
func TestStalePreviewThroughTheApp(t *testing.T) {
	app, ws := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "write_file", Arguments: llmtest.Text(`{"path":"a.txt","content":"mine"}`)}}},
		{Text: llmtest.Text("done")},
	}})
	req := askOver(t, app, ws, "a.txt", "write")
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(app.Snapshot().PendingApprovals[0].Stale) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the preview was not marked stale")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if st := app.Snapshot().PendingApprovals[0].Stale; len(st) != 1 || st[0] != "a.txt" {
		t.Fatalf("stale %v", st)
	}
	err := app.ResolveApproval(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce})
	if err == nil || !strings.Contains(err.Error(), "re-preview first") {
		t.Fatalf("approving a stale preview: %v", err)
	}
	if err := app.RepreviewApproval(req.ApprovalID); err != nil {
		t.Fatal(err)
	}
	p := app.Snapshot().PendingApprovals
	if len(p) != 1 || p[0].ApprovalID != req.ApprovalID || len(p[0].Stale) != 0 || p[0].Preview.Files[0].OldContent != "outside" {
		t.Fatalf("after re-preview: %+v", p)
	}
	if err := app.ResolveApproval(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "mine" {
		t.Fatalf("a.txt %q", b)
	}
}
