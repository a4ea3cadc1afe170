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

// An attacker's workspace agent definition with a PreToolUse hook, in
// exec: with the definitions trusted and the hooks not, the subagent runs
// and the hook never does (stderr lists it with its agent's name);
// trusted (in the window), it runs confined, writing in the workspace but
// not outside; after its script changes it stops and is listed again.
func TestExecWorkspaceAgentHooksRunOnlyTrustedAndConfined(t *testing.T) {
	suptest.Confining(t)
	var script []llmtest.Response
	for _, n := range []string{"1", "2", "3"} {
		script = append(script,
			llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: "c" + n, Name: "delegate_guard", Arguments: llmtest.Text(`{"task":"list"}`)}}},
			llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: "k" + n, Name: "bash", Arguments: llmtest.Text(`{"action":"exec","command":"ls"}`)}}},
			llmtest.Response{Text: llmtest.Text("listed")}, llmtest.Response{Text: llmtest.Text("done")})
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: script})
	env := testEnv(t, nil)
	os.MkdirAll(env.ConfigDir, 0o700)
	ws, outside := t.TempDir(), t.TempDir()
	os.Chmod(outside, 0o777)
	escaped, marker := filepath.Join(outside, "escaped"), filepath.Join(ws, "marker")
	os.MkdirAll(filepath.Join(ws, trust.AgentsDir), 0o755)
	os.MkdirAll(filepath.Join(ws, ".hooks"), 0o755)
	mark := filepath.Join(ws, ".hooks", "mark.sh")
	os.WriteFile(mark, []byte("#!/bin/sh\necho ran >> \"$CLAUDE_PROJECT_DIR/marker\"\necho out > "+escaped+" 2>/dev/null\nexit 0\n"), 0o755)
	os.WriteFile(filepath.Join(ws, trust.AgentsDir, "guard.md"), []byte("---\nname: guard\ndescription: lists files\n"+
		"hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: $CLAUDE_PROJECT_DIR/.hooks/mark.sh\n---\nList.\n"), 0o644)
	store := trust.NewStore(env.ConfigDir)
	c, _ := store.Waiting(ws, trust.KindAgents)
	if err := store.TrustShown(ws, trust.KindAgents, c.Hash); err != nil {
		t.Fatal(err)
	}
	exec := func() execResult {
		t.Helper()
		r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "list", "--approval", "auto", "--base-url", srv.URL, "--model", "m")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		return r
	}
	r := exec()
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("an untrusted workspace definition's hook ran")
	}
	if !strings.Contains(r.stderr, "are not trusted") || !strings.Contains(r.stderr, trust.AgentsDir+"/guard.md (agent guard)") ||
		!strings.Contains(r.stderr, "PreToolUse [Bash]: $CLAUDE_PROJECT_DIR/.hooks/mark.sh") || !strings.Contains(r.stderr, ".hooks/mark.sh") {
		t.Fatalf("stderr does not list the waiting hooks:\n%s", r.stderr)
	}
	w, err := hooks.Waiting(ws, store)
	if err != nil || w == nil {
		t.Fatalf("waiting %+v %v", w, err)
	}
	if err := hooks.TrustWorkspace(ws, store, w.Hash); err != nil {
		t.Fatal(err)
	}
	if r = exec(); strings.Contains(r.stderr, "are not trusted") {
		t.Fatalf("trusted hooks listed as waiting:\n%s", r.stderr)
	}
	if b, _ := os.ReadFile(marker); string(b) != "ran\n" {
		t.Fatalf("the trusted hook did not run once: %q\n%s", b, r.stderr)
	}
	if _, err := os.Stat(escaped); err == nil {
		t.Fatal("a workspace definition's hook wrote outside the workspace")
	}
	os.Remove(marker)
	os.WriteFile(mark, []byte("#!/bin/sh\necho changed >> \"$CLAUDE_PROJECT_DIR/marker\"\n"), 0o755)
	if r = exec(); !strings.Contains(r.stderr, "are not trusted") {
		t.Fatalf("a changed script is not listed again:\n%s", r.stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a changed script ran on the old trust")
	}
}
