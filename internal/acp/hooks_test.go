package acp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
)

// A PreToolUse hook's ask asks the editor even in auto mode, and the
// permission request names the hook and its reason.
func TestPermissionRequestNamesTheAskingHook(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{patchCall("call_1")}},
		{Text: llmtest.Text("Done.")},
	}})
	env := testEnv(t)
	os.MkdirAll(env.ConfigDir, 0o700)
	conf := `{"hooks": {"PreToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\": {\"permissionDecision\": \"ask\", \"permissionDecisionReason\": \"release freeze\"}}'"}]}]}}`
	if err := os.WriteFile(filepath.Join(env.ConfigDir, "hooks.json"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	ws := workspaceWith(t, map[string]string{"a.txt": "old\n"})
	e := startEditor(t, env, srv, "--approval", "auto")
	e.initialize()
	s := e.newSession(ws)
	if _, err := e.prompt(context.Background(), s.SessionId, "change a.txt"); err != nil {
		t.Fatal(err)
	}
	_, perms := e.seen()
	if len(perms) != 1 {
		t.Fatalf("%d permission requests in auto mode, want the hook's one", len(perms))
	}
	var text []string
	for _, c := range perms[0].ToolCall.Content {
		if c.Content != nil && c.Content.Content.Text != nil {
			text = append(text, c.Content.Content.Text.Text)
		}
	}
	if got := strings.Join(text, "\n"); !strings.Contains(got, `(PreToolUse, user): ask — release freeze`) || !strings.Contains(got, `hook "echo`) {
		t.Errorf("the request does not name the hook: %q", got)
	}
	if got := readFile(t, filepath.Join(ws, "a.txt")); got == "old\n" {
		t.Errorf("allowed once, the patch was not applied")
	}
}
