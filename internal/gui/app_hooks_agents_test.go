//go:build linux

package gui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/hooks"
	"gatehouse/internal/hooks/hookstest"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/supervisor/suptest"
)

// An attacker's workspace agent definition with a PreToolUse hook, in the
// window: with the definitions trusted and the hooks not, the subagent
// runs and the hook never does; the hooks banner lists it with its agent's
// name and Settings → Hooks with source agent guard (the user's own
// definitions' beside it); trusted, it runs confined; after its script
// changes it stops until trusted again.
func TestWindowWorkspaceAgentHooksRunOnlyTrusted(t *testing.T) {
	suptest.Confining(t)
	srv := llmtest.Start(t, llmtest.Script{Responses: hookstest.DelegateTurns("guard", 3)})
	app, ws := newAppIn(t, srv, filepath.Join(t.TempDir(), "config"), filepath.Join(t.TempDir(), "data"))
	marker, mark := hookstest.AgentGuard(t, ws, "")
	os.MkdirAll(filepath.Join(app.store.Dir(), "agents"), 0o700)
	os.WriteFile(filepath.Join(app.store.Dir(), "agents", "mine.md"), []byte("---\nname: mine\ndescription: d\n"+
		"hooks:\n  Stop:\n    - hooks: [{type: command, command: echo done}]\n---\n"), 0o600)
	p, err := app.AgentsPending()
	if err != nil || p == nil {
		t.Fatalf("agents pending %+v %v", p, err)
	}
	if err := app.AgentsTrustWorkspace(p.Hash); err != nil {
		t.Fatal(err)
	}
	submit := func(text string) {
		t.Helper()
		if _, err := app.Submit(protocol.Submission{Text: text}); err != nil {
			t.Fatal(err)
		}
		waitIdle(t, app)
	}

	submit("one")
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("an untrusted workspace definition's hook ran")
	}
	w, err := app.WorkspaceHooksPending()
	if err != nil || w == nil || len(w.Files) != 2 || w.Files[0].Agent != "guard" ||
		strings.Join(w.Files[0].Commands, "") != "PreToolUse [Bash]: $CLAUDE_PROJECT_DIR/.hooks/mark.sh" {
		t.Fatalf("the hooks banner: %+v %v", w, err)
	}
	v := app.Hooks()
	var listed []string
	for _, h := range v.Hooks {
		listed = append(listed, string(h.Event)+" "+h.Source+" "+h.Agent+" "+map[bool]string{true: "confined", false: "yours"}[h.Confined])
	}
	if strings.Join(listed, "; ") != "SubagentStop agent mine yours; PreToolUse agent guard confined" || len(v.Errors) != 0 ||
		v.Hooks[1].Source != hooks.ScopeAgent {
		t.Fatalf("Settings → Hooks lists %q (errors %v)", listed, v.Errors)
	}
	if _, err := app.TestHook(v.Hooks[1].ID); err == nil {
		t.Error("a workspace definition's hook was tested from Settings")
	}
	if err := app.WorkspaceHooksTrust(w.Hash); err != nil {
		t.Fatal(err)
	}

	submit("two")
	if b, _ := os.ReadFile(marker); string(b) != "ran\n" {
		t.Fatalf("the trusted hook did not run once: %q", b)
	}
	os.Remove(marker)
	hookstest.Script(t, mark, "echo changed >> \"$CLAUDE_PROJECT_DIR/marker\"\n")

	submit("three")
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a changed script ran on the old trust")
	}
	if w, _ := app.WorkspaceHooksPending(); w == nil || w.Hash == "" {
		t.Fatal("a changed script does not ask again")
	}
}
