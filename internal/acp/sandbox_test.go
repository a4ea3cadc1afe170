//go:build linux

package acp

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/supervisor/suptest"

	sdk "github.com/coder/acp-go-sdk"
)

// An editor's session runs commands under the supervisor, confined like the
// window's and exec's: the write in the workspace happens, the one in the
// home folder is refused.
func TestEditorCommandsRunConfined(t *testing.T) {
	suptest.Confining(t)
	root := t.TempDir()
	home, tmp := filepath.Join(root, "home"), filepath.Join(root, "tmp")
	for _, d := range []string{home, tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "bash", Arguments: llmtest.Text(`{"action":"exec","command":"echo in > inside.txt; echo out > \"$HOME/x\""}`)}}},
		{Text: llmtest.Text("Ran it.")},
	}})
	ws := workspaceWith(t, map[string]string{"a.txt": "a\n"})
	env := testEnv(t)
	env.ProcEnv = func() []string { return append(os.Environ(), "HOME="+home, "TMPDIR="+tmp) }
	e := startEditor(t, env, srv, "--approval", "auto")
	e.initialize()
	s := e.newSession(ws)
	r, err := e.prompt(context.Background(), s.SessionId, "run it")
	if err != nil || r.StopReason != sdk.StopReasonEndTurn {
		t.Fatalf("prompt: %+v %v", r, err)
	}
	if got := readFile(t, filepath.Join(ws, "inside.txt")); got != "in\n" {
		t.Errorf("inside.txt = %q", got)
	}
	if _, err := os.Stat(filepath.Join(home, "x")); err == nil {
		t.Error("the editor's command wrote ~/x: it ran unconfined")
	}
}
