package acp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/llm/llmtest"
)

// A session at the settings' token limit ends its turn with max_tokens and
// a last message naming the limit.
func TestBudgetEndsTheTurnNamingTheLimit(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "list_dir", Arguments: llmtest.Text(`{}`)}},
			Usage: &llmtest.Usage{PromptTokens: 500, CompletionTokens: 20}},
	}})
	env := testEnv(t)
	os.MkdirAll(env.ConfigDir, 0o700)
	os.WriteFile(filepath.Join(env.ConfigDir, "settings.json"), []byte(`{"approvalMode":"auto","theme":"system","budget":{"sessionTokens":500}}`), 0o644)
	e := startEditor(t, env, srv)
	e.initialize()
	s := e.newSession(workspaceWith(t, nil))
	r, err := e.prompt(context.Background(), s.SessionId, "look around")
	if err != nil || r.StopReason != sdk.StopReasonMaxTokens {
		t.Fatalf("prompt: %+v %v", r, err)
	}
	us, _ := e.seen()
	last := us[len(us)-1].Update.AgentMessageChunk
	if last == nil || !strings.Contains(last.Content.Text.Text, "the session's token limit (500 tokens) is reached: 520 tokens used") {
		t.Fatalf("last update %+v", us[len(us)-1].Update)
	}
}
