//go:build linux

package hooks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/suptest"
	"gatehouse/internal/trust"
)

// A trusted workspace's hook runs as the app runs it, under the helper and
// confined by the workspace's sandbox policy: it writes in the workspace
// (a formatter can) but not outside it, and the outcome says it ran.
// Run as root and as nobody (make test-sandbox-nobody).
func TestWorkspaceHookRunsConfined(t *testing.T) {
	if sandbox.ABI() < 1 {
		t.Skip("this kernel has no Landlock")
	}
	helper := suptest.Binary(t)
	ws, store := workspaceWithHooks(t)
	outside := t.TempDir()
	os.Chmod(outside, 0o777)
	os.Chmod(ws, 0o777)
	mark := filepath.Join(outside, "escaped")
	script(t, filepath.Join(ws, ".hooks"), "mark.sh", "#!/bin/sh\necho in > \"$CLAUDE_PROJECT_DIR/inside\"\necho out > "+mark+" || echo refused >&2\nexit 0\n")
	c, _ := store.Waiting(ws, trust.KindHooks)
	if err := store.TrustShown(ws, trust.KindHooks, c.Hash); err != nil {
		t.Fatal(err)
	}
	// The sandbox's temp folder is its own, so the outside folder (below
	// the system's temp folder too) is outside every writable place.
	env := append(os.Environ(), "TMPDIR="+t.TempDir())
	p := sandbox.Build(sandbox.Spec{Workspace: ws, Home: sandbox.HomeDir(env), Env: env, Layers: sandbox.Detect()})
	w := &Workspace{Root: ws, Trust: store}
	r := &Runner{ProjectDir: ws, Workspace: w.Hooks, Confine: Confined(helper, &p)}
	o := r.Run(context.Background(), PreToolUse, Input{}, bashCall("ls"))
	if len(o.Ran) != 1 || o.Ran[0].Failed != "" || o.Permission == "deny" {
		t.Fatalf("the hook did not run: %+v", o)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "inside")); err != nil || strings.TrimSpace(string(b)) != "in" {
		t.Fatalf("the hook could not write in the workspace: %q %v (stderr %q)", b, err, o.Ran[0].Stderr)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("a workspace's hook wrote outside the workspace")
	}
	if !strings.Contains(o.Ran[0].Stderr, "refused") {
		t.Errorf("stderr %q", o.Ran[0].Stderr)
	}
}

// A trusted workspace agent definition's hook runs as a workspace's hook
// does: only through the confining launcher, under the helper, writing in
// the workspace but not outside it; untrusted, it is not there to run.
// Run as root and as nobody (make test-sandbox-nobody).
func TestWorkspaceHookOfAnAgentRunsConfined(t *testing.T) {
	if sandbox.ABI() < 1 {
		t.Skip("this kernel has no Landlock")
	}
	helper := suptest.Binary(t)
	ws, outside := t.TempDir(), t.TempDir()
	os.Chmod(outside, 0o777)
	os.Chmod(ws, 0o777)
	mark := filepath.Join(outside, "escaped")
	os.MkdirAll(filepath.Join(ws, ".hooks"), 0o755)
	os.MkdirAll(filepath.Join(ws, trust.AgentsDir), 0o755)
	script(t, filepath.Join(ws, ".hooks"), "mark.sh", "#!/bin/sh\necho in > \"$CLAUDE_PROJECT_DIR/inside\"\necho out > "+mark+" || echo refused >&2\nexit 0\n")
	def := trust.AgentsDir + "/guard.md"
	os.WriteFile(filepath.Join(ws, def), []byte("---\nname: guard\ndescription: d\nhooks:\n  PreToolUse:\n    - matcher: Bash\n"+
		"      hooks: [{type: command, command: $CLAUDE_PROJECT_DIR/.hooks/mark.sh}]\n---\n"), 0o644)
	os.Chmod(filepath.Join(ws, ".hooks"), 0o777)
	store := trust.NewStore(t.TempDir())
	w := &Workspace{Root: ws, Trust: store}
	if hs := w.Agent(def); hs != nil {
		t.Fatalf("untrusted hooks are in force: %+v", hs)
	}
	c, _ := store.Waiting(ws, trust.KindHooks)
	if err := store.TrustShown(ws, trust.KindHooks, c.Hash); err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "TMPDIR="+t.TempDir())
	p := sandbox.Build(sandbox.Spec{Workspace: ws, Home: sandbox.HomeDir(env), Env: env, Layers: sandbox.Detect()})
	r := &Runner{ProjectDir: ws, Agent: func() []Hook { return w.Agent(def) }, Confine: Confined(helper, &p)}
	o := r.Run(context.Background(), PreToolUse, Input{}, bashCall("ls"))
	if len(o.Ran) != 1 || o.Ran[0].Failed != "" || !o.Ran[0].Hook.Confined || o.Ran[0].Report().Source != "agent guard" {
		t.Fatalf("the hook did not run confined: %+v", o)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "inside")); err != nil || strings.TrimSpace(string(b)) != "in" {
		t.Fatalf("the hook could not write in the workspace: %q %v (stderr %q)", b, err, o.Ran[0].Stderr)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("a workspace definition's hook wrote outside the workspace")
	}
	if !strings.Contains(o.Ran[0].Stderr, "refused") {
		t.Errorf("stderr %q", o.Ran[0].Stderr)
	}
}
