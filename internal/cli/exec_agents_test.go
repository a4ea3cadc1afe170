package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// exec --json prints a child's events with the parent's call id and the
// agent's name, in the one gap-free seq; the turn ends with the parent's
// turn.stopped, not the child's. A user's definition from the config folder
// is offered.
func TestExecJSONPrintsChildEvents(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "delegate_lister", Arguments: llmtest.Text(`{"task":"list"}`)}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "k1", Name: "list_dir", Arguments: llmtest.Text(`{"path":"."}`)}}},
		{Text: llmtest.Text("one file: a.txt")},
		{Text: llmtest.Text("the lister found a.txt")},
	}})
	env := testEnv(t, nil)
	dir := filepath.Join(env.ConfigDir, "agents")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "lister.md"), []byte("---\nname: lister\ndescription: lists files\ntools: list_dir\n---\nList."), 0o644)
	ws := t.TempDir()
	os.WriteFile(filepath.Join(ws, "a.txt"), []byte("x"), 0o644)
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "delegate",
		"--approval", "safe", "--base-url", srv.URL, "--model", "fake-model", "--json")
	if r.code != ExitCompleted {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	evs := parseEvents(t, r.stdout)
	var childCalls, childStops int
	for _, e := range evs {
		if e.ParentCallID == "" {
			if e.SessionID != evs[0].SessionID {
				t.Errorf("a parent event of session %s", e.SessionID)
			}
			continue
		}
		if e.ParentCallID != "call_1" || e.Agent != "lister" || e.SessionID == evs[0].SessionID {
			t.Errorf("child event %+v", e)
		}
		switch p := e.Payload.(type) {
		case protocol.ToolFinishedPayload:
			childCalls++
			if p.Tool != "list_dir" || !strings.Contains(string(p.Result), "a.txt") {
				t.Errorf("child call %+v", p)
			}
		case protocol.TurnStoppedPayload:
			childStops++
		}
	}
	last := evs[len(evs)-1]
	if childCalls != 1 || childStops != 1 || last.ParentCallID != "" || last.Type != protocol.TurnStopped {
		t.Errorf("child calls %d, stops %d, last %+v", childCalls, childStops, last)
	}
}
