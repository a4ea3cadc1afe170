package hooks

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/trust"
)

// plainLaunch runs a confined hook unconfined: for tests of when workspace
// hooks run, not of how they are confined (see TestWorkspaceHookRunsConfined).
func plainLaunch(h Hook, dir string, env []string) (Launched, error) {
	cmd := exec.Command("sh", "-c", h.Command)
	cmd.Dir, cmd.Env = dir, env
	return Launched{Cmd: cmd, Kill: func() { cmd.Process.Kill() }, Release: func() {}}, nil
}

// workspaceWithHooks writes a workspace whose .gatehouse/hooks.json runs
// .hooks/mark.sh on SessionStart and PreToolUse; mark.sh appends the event
// to ran.log in the workspace.
func workspaceWithHooks(t *testing.T) (ws string, store *trust.Store) {
	t.Helper()
	ws = t.TempDir()
	os.MkdirAll(filepath.Join(ws, ".gatehouse"), 0o755)
	os.MkdirAll(filepath.Join(ws, ".hooks"), 0o755)
	script(t, filepath.Join(ws, ".hooks"), "mark.sh", "#!/bin/sh\ngrep -o '\"hook_event_name\":\"[A-Za-z]*\"' >> \"$CLAUDE_PROJECT_DIR/ran.log\"\n")
	conf := `{"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "$CLAUDE_PROJECT_DIR/.hooks/mark.sh"}]}],
		"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "$CLAUDE_PROJECT_DIR/.hooks/mark.sh"}]}]}}`
	if err := os.WriteFile(filepath.Join(ws, trust.HooksFile), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	return ws, trust.NewStore(t.TempDir())
}

func ranLog(ws string) string {
	b, _ := os.ReadFile(filepath.Join(ws, "ran.log"))
	return string(b)
}

// A workspace's hooks run nothing before the user trusts them, SessionStart
// included; once trusted they run at once (the same runner: no restart);
// after a script they name changes they stop until trusted again.
func TestWorkspaceHooksRunOnlyAsTrusted(t *testing.T) {
	ws, store := workspaceWithHooks(t)
	w := &Workspace{Root: ws, Trust: store}
	r := &Runner{ProjectDir: ws, Workspace: w.Hooks, Confine: plainLaunch}
	ctx := context.Background()
	if o := r.Run(ctx, SessionStart, Input{Source: "startup"}, nil); len(o.Ran) != 0 || ranLog(ws) != "" {
		t.Fatalf("an untrusted workspace's SessionStart hook ran: %+v %q", o.Ran, ranLog(ws))
	}
	if o := r.Run(ctx, PreToolUse, Input{}, bashCall("ls")); len(o.Ran) != 0 || o.Permission != "" {
		t.Fatalf("an untrusted workspace's PreToolUse hook ran: %+v", o)
	}
	c, err := store.Waiting(ws, trust.KindHooks)
	if err != nil || c == nil || strings.Join(c.Files, " ") != ".gatehouse/hooks.json .hooks/mark.sh" {
		t.Fatalf("the prompt shows %+v (%v)", c, err)
	}
	if err := store.TrustShown(ws, trust.KindHooks, c.Hash); err != nil {
		t.Fatal(err)
	}
	o := r.Run(ctx, SessionStart, Input{Source: "startup"}, nil)
	if len(o.Ran) != 1 || o.Ran[0].Source != WorkspaceSource || !strings.Contains(ranLog(ws), "SessionStart") {
		t.Fatalf("the trusted hook did not run: %+v %q", o.Ran, ranLog(ws))
	}
	r.Run(ctx, PreToolUse, Input{}, bashCall("ls"))
	if !strings.Contains(ranLog(ws), "PreToolUse") {
		t.Fatalf("the trusted PreToolUse hook did not run: %q", ranLog(ws))
	}
	script(t, filepath.Join(ws, ".hooks"), "mark.sh", "#!/bin/sh\necho changed >> \"$CLAUDE_PROJECT_DIR/ran.log\"\n")
	if o := r.Run(ctx, SessionStart, Input{}, nil); len(o.Ran) != 0 || strings.Contains(ranLog(ws), "changed") {
		t.Fatalf("a changed script ran on the old trust: %+v %q", o.Ran, ranLog(ws))
	}
	if c, _ := store.Waiting(ws, trust.KindHooks); c == nil || c.Hash == "" {
		t.Fatal("a changed script does not ask again")
	}
}

// A workspace's hook where nothing can confine it does not run: a
// PreToolUse one then blocks the call, saying why.
func TestWorkspaceHookWithoutConfinementBlocks(t *testing.T) {
	ws, store := workspaceWithHooks(t)
	c, _ := store.Waiting(ws, trust.KindHooks)
	store.TrustShown(ws, trust.KindHooks, c.Hash)
	w := &Workspace{Root: ws, Trust: store}
	r := &Runner{ProjectDir: ws, Workspace: w.Hooks}
	o := r.Run(context.Background(), PreToolUse, Input{}, bashCall("ls"))
	if o.Permission != "deny" || !strings.Contains(o.Reason, "only confined") || ranLog(ws) != "" {
		t.Fatalf("outcome %+v, log %q", o, ranLog(ws))
	}
}
