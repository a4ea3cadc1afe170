package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
)

// A subagent's file change is taken back with the turn that started it: a
// `general` child's write_file lands in the parent's checkpoints, under the
// parent's turn, so `gatehouse undo` offers to restore it.
func TestUndoTakesBackASubagentsChange(t *testing.T) {
	ws, _ := filepath.EvalSymlinks(t.TempDir())
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "p1", Name: "delegate_general", Arguments: llmtest.Text(`{"task":"rewrite a.txt"}`)}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "write_file", Arguments: llmtest.Text(`{"path":"a.txt","content":"child\n"}`)}}},
		{Text: llmtest.Text("child done")},
		{Text: llmtest.Text("done")},
	}})
	env := testEnv(t, nil)
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "delegate", "--approval", "auto",
		"--base-url", srv.URL, "--model", "fake-model")
	if r.code != ExitCompleted {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "child\n" {
		t.Fatalf("a.txt = %q after the child's write", b)
	}
	var out, errb bytes.Buffer
	if code := Undo([]string{"--workspace", ws, "--dry-run"}, env.DataDir, &out, &errb); code != 0 {
		t.Fatalf("undo --dry-run: exit %d\n%s%s", code, out.String(), errb.String())
	}
	if !strings.Contains(out.String(), "a.txt") || !strings.Contains(out.String(), "+before") {
		t.Fatalf("undo does not offer the child's change back:\n%s", out.String())
	}
	if code := Undo([]string{"--workspace", ws}, env.DataDir, &out, &errb); code != 0 {
		t.Fatalf("undo: exit %d\n%s%s", code, out.String(), errb.String())
	}
	if b, _ := os.ReadFile(filepath.Join(ws, "a.txt")); string(b) != "before\n" {
		t.Fatalf("a.txt = %q after undo", b)
	}
}
