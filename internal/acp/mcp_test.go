package acp

import (
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/llm/llmtest"
)

// The editor's mcpServers start with the session: their tools are offered
// to the model and run through the same gate.
func TestEditorMCPServersJoinTheSession(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "fakeserver")
	if out, err := exec.Command("go", "build", "-o", bin, "../mcp/testdata/fakeserver").CombinedOutput(); err != nil {
		t.Fatalf("building the fake MCP server: %v\n%s", err, out)
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "mcp__fake__echo", Arguments: llmtest.Text(`{"text":"hi"}`)}}},
		{Text: llmtest.Text("Echoed.")},
	}})
	e := startEditor(t, testEnv(t), srv, "--approval", "auto")
	e.initialize()
	s, err := e.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: workspaceWith(t, nil),
		McpServers: []sdk.McpServer{{Stdio: &sdk.McpServerStdio{Name: "fake", Command: bin, Args: []string{}, Env: []sdk.EnvVariable{}}}}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	if r, err := e.prompt(context.Background(), s.SessionId, "echo hi"); err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", r, err)
	}
	var offered bool
	for _, r := range srv.Requests() {
		offered = offered || r.Path == "/v1/chat/completions" && strings.Contains(string(r.Body), `"mcp__fake__echo"`)
	}
	if !offered {
		t.Errorf("the server's tool was not offered: %+v", srv.Requests())
	}
	us, _ := e.seen()
	last := lastToolUpdates(us)["call_1"]
	if last == nil || *last.Status != sdk.ToolCallStatusCompleted || last.RawOutput == nil ||
		!strings.Contains(string(mustJSON(t, last.RawOutput)), "echo: hi") {
		t.Fatalf("the MCP call's update %+v", last)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
