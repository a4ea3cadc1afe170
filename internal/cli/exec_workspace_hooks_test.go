//go:build linux

package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/hooks"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/supervisor/suptest"
	"gatehouse/internal/trust"
)

// A workspace's own hooks in exec: untrusted, its SessionStart hook does
// not run and stderr lists its commands; trusted (in the window), it runs
// confined, writing in the workspace but not outside; after its script
// changes it stops and is listed again.
func TestExecWorkspaceHooksRunOnlyTrustedAndConfined(t *testing.T) {
	suptest.Confining(t)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Text("one")}, {Text: llmtest.Text("two")}, {Text: llmtest.Text("three")},
	}})
	env := testEnv(t, nil)
	os.MkdirAll(env.ConfigDir, 0o700)
	ws, outside := t.TempDir(), t.TempDir()
	os.Chmod(outside, 0o777)
	mark := filepath.Join(outside, "escaped")
	os.MkdirAll(filepath.Join(ws, ".gatehouse"), 0o755)
	os.MkdirAll(filepath.Join(ws, ".hooks"), 0o755)
	start := filepath.Join(ws, ".hooks", "start.sh")
	os.WriteFile(start, []byte("#!/bin/sh\necho in > \"$CLAUDE_PROJECT_DIR/started\"\necho out > "+mark+" 2>/dev/null\nexit 0\n"), 0o755)
	os.WriteFile(filepath.Join(ws, trust.HooksFile), []byte(`{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "$CLAUDE_PROJECT_DIR/.hooks/start.sh"}]}]}}`), 0o644)
	exec := func() execResult {
		t.Helper()
		return runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "hi",
			"--approval", "auto", "--base-url", srv.URL, "--model", "m")
	}
	r := exec()
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "started")); err == nil {
		t.Fatal("an untrusted workspace's SessionStart hook ran")
	}
	if !strings.Contains(r.stderr, "are not trusted") || !strings.Contains(r.stderr, "SessionStart: $CLAUDE_PROJECT_DIR/.hooks/start.sh") ||
		!strings.Contains(r.stderr, ".hooks/start.sh") {
		t.Fatalf("stderr does not list the waiting hooks:\n%s", r.stderr)
	}
	store := trust.NewStore(env.ConfigDir)
	w, err := hooks.Waiting(ws, store)
	if err != nil || w == nil {
		t.Fatalf("waiting %+v %v", w, err)
	}
	if err := hooks.TrustWorkspace(ws, store, w.Hash); err != nil {
		t.Fatal(err)
	}
	if r = exec(); r.code != 0 || strings.Contains(r.stderr, "are not trusted") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "started")); err != nil {
		t.Fatalf("the trusted SessionStart hook did not run: %v\n%s", err, r.stderr)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("a workspace's hook wrote outside the workspace")
	}
	os.Remove(filepath.Join(ws, "started"))
	os.WriteFile(start, []byte("#!/bin/sh\necho changed > \"$CLAUDE_PROJECT_DIR/started\"\n"), 0o755)
	if r = exec(); !strings.Contains(r.stderr, "are not trusted") {
		t.Fatalf("a changed script is not listed again:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "started")); err == nil {
		t.Fatal("a changed script ran on the old trust")
	}
}
