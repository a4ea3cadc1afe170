package acp

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"

	sdk "github.com/coder/acp-go-sdk"
)

// ACP lists plan among its modes; in it a prompt ends with the model's plan
// as the answer, and nothing is written.
func TestPlanModeAnswersWithThePlan(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{patchCall("call_1")}},
		{ToolCalls: []llmtest.ToolCall{{ID: "call_2", Name: "propose_plan", Arguments: llmtest.Text(`{"plan":"1. Change a.txt to new"}`)}}},
	}})
	ws := workspaceWith(t, map[string]string{"a.txt": "old\n"})
	e := startEditor(t, testEnv(t), srv)
	e.initialize()
	s := e.newSession(ws)
	var listed bool
	for _, m := range s.Modes.AvailableModes {
		listed = listed || m.Id == "plan"
	}
	if !listed {
		t.Fatalf("modes %+v", s.Modes.AvailableModes)
	}
	if _, err := e.conn.SetSessionMode(context.Background(), sdk.SetSessionModeRequest{SessionId: s.SessionId, ModeId: "plan"}); err != nil {
		t.Fatal(err)
	}
	r, err := e.prompt(context.Background(), s.SessionId, "change a.txt")
	if err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", r, err)
	}
	us, perms := e.seen()
	if len(perms) != 0 {
		t.Errorf("plan mode asked %d times", len(perms))
	}
	if txt := agentText(us); !strings.Contains(txt, "1. Change a.txt to new") {
		t.Errorf("agent text %q", txt)
	}
	if got := readFile(t, filepath.Join(ws, "a.txt")); got != "old\n" {
		t.Errorf("a.txt = %q", got)
	}
}
