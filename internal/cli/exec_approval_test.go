package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

// --approval manual without a terminal: the write is rejected, nothing is
// written, the turn ends blocked_by_approval (exit 3), the model reads why,
// and the decision is in the session log.
func TestExecManualWithoutTerminalIsBlocked(t *testing.T) {
	patch := `{"patch":"*** Begin Patch\n*** Add File: notes/hello.txt\n+hi\n*** End Patch"}`
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "apply_patch", Arguments: llmtest.Text(patch)}}},
	}})
	env := testEnv(t, nil)
	ws := t.TempDir()
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "make a hello file",
		"--approval", "manual", "--base-url", srv.URL, "--model", "fake-model", "--json")
	if r.code != ExitBlockedByApproval {
		t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, ExitBlockedByApproval, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "notes")); !os.IsNotExist(err) {
		t.Fatalf("the workspace changed: %v", err)
	}
	evs := parseEvents(t, r.stdout)
	var requested, resolved int
	var result protocol.ToolFinishedPayload
	for _, e := range evs {
		switch p := e.Payload.(type) {
		case protocol.ApprovalRequestedPayload:
			requested++
			if p.Tool != "apply_patch" || len(p.Preview.Files) != 1 {
				t.Errorf("approval.requested %+v", p)
			}
		case protocol.ApprovalResolvedPayload:
			resolved++
			if p.Decision.Kind != protocol.DecisionReject {
				t.Errorf("approval.resolved %+v", p)
			}
		case protocol.ToolFinishedPayload:
			result = p
		}
	}
	if requested != 1 || resolved != 1 {
		t.Errorf("%d approval.requested, %d approval.resolved", requested, resolved)
	}
	if !result.IsError || !strings.Contains(string(result.Result), "[approval-rejected]") || !strings.Contains(string(result.Result), "no terminal") {
		t.Errorf("tool result %s", result.Result)
	}
	last := evs[len(evs)-1].Payload.(protocol.TurnStoppedPayload)
	if last.Reason != protocol.StopBlockedByApproval {
		t.Errorf("turn.stopped %+v", last)
	}
	root, _ := filepath.EvalSymlinks(ws)
	list, err := session.NewStore(env.DataDir).List(root)
	if err != nil || len(list) != 1 {
		t.Fatalf("sessions %+v %v", list, err)
	}
	raw, err := os.ReadFile(session.NewStore(env.DataDir).Path(root, list[0].ID))
	if err != nil || !strings.Contains(string(raw), `"reject"`) {
		t.Errorf("the decision is not in the session log (%v)", err)
	}
}

// --approval safe (the default) runs read_file without asking, even
// without a terminal, and the turn completes.
func TestExecSafeReadsWithoutAsking(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "read_file", Arguments: llmtest.Text(`{"path":"a.txt"}`)}}},
		{Text: llmtest.Text("It says hello.")},
	}})
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runExec(t, context.Background(), testEnv(t, nil), "--workspace", ws, "--prompt", "read a.txt",
		"--base-url", srv.URL, "--model", "fake-model", "--json")
	if r.code != ExitCompleted {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	for _, e := range parseEvents(t, r.stdout) {
		switch p := e.Payload.(type) {
		case protocol.ApprovalRequestedPayload:
			t.Errorf("read_file asked: %+v", p)
		case protocol.ToolFinishedPayload:
			if p.IsError || !strings.Contains(string(p.Result), "hello") {
				t.Errorf("read_file result %s", p.Result)
			}
		}
	}
}

// --approval safe without a terminal: a command is rejected and not run.
func TestExecSafeRejectsACommandWithoutTerminal(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "bash", Arguments: llmtest.Text(`{"action":"exec","command":"touch made"}`)}}},
	}})
	ws := t.TempDir()
	r := runExec(t, context.Background(), testEnv(t, nil), "--workspace", ws, "--prompt", "touch",
		"--base-url", srv.URL, "--model", "fake-model")
	if r.code != ExitBlockedByApproval {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "made")); !os.IsNotExist(err) {
		t.Fatalf("the command ran: %v", err)
	}
	if !strings.Contains(r.stderr, "blocked_by_approval") {
		t.Errorf("stderr %q", r.stderr)
	}
}
