//go:build linux

package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/hooks"
	"gatehouse/internal/hooks/hookstest"
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
	srv := llmtest.Start(t, llmtest.Script{Responses: hookstest.DelegateTurns("guard", 3)})
	env := testEnv(t, nil)
	os.MkdirAll(env.ConfigDir, 0o700)
	ws, outside := t.TempDir(), t.TempDir()
	os.Chmod(outside, 0o777)
	escaped := filepath.Join(outside, "escaped")
	marker, mark := hookstest.AgentGuard(t, ws, "echo out > "+escaped+" 2>/dev/null\nexit 0\n")
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
	hookstest.Script(t, mark, "echo changed >> \"$CLAUDE_PROJECT_DIR/marker\"\n")
	if r = exec(); !strings.Contains(r.stderr, "are not trusted") {
		t.Fatalf("a changed script is not listed again:\n%s", r.stderr)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a changed script ran on the old trust")
	}
}
