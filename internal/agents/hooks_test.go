package agents

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/hooks"
	"gatehouse/internal/hooks/hookstest"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/trust"
)

// finished is the tool.finished payload of call id, the child's or the
// parent's.
func (h *host) finished(id string) protocol.ToolFinishedPayload {
	h.t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, e := range h.events {
		if p, ok := e.Payload.(protocol.ToolFinishedPayload); ok && p.CallID == id {
			return p
		}
	}
	h.t.Fatalf("no result for call %s", id)
	return protocol.ToolFinishedPayload{}
}

func readLog(t *testing.T, p string) string {
	t.Helper()
	b, _ := os.ReadFile(p)
	return string(b)
}

// A definition's hooks run for its child's calls, beside the user's and
// stricter than them: the child's `rm -rf` is denied by the agent's Bash
// hook although the user's hook allows it (the child reads the reason);
// the parent's own `rm -rf` after it is not the agent's to judge and runs.
// The definition's Stop hook runs when the child ends, as SubagentStop.
func TestDefinitionHooksRunForItsChildOnly(t *testing.T) {
	d, err := Parse("guard.md", []byte(guardDef))
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "build"), 0o755)
	os.MkdirAll(filepath.Join(root, "build2"), 0o755)
	os.MkdirAll(filepath.Join(root, ".hooks"), 0o755)
	hookstest.Script(t, filepath.Join(root, ".hooks", "no-rm.sh"), `in=$(cat)
echo "$in" >> "$CLAUDE_PROJECT_DIR/agent.log"
case "$in" in *'rm -rf'*) echo "guard: no rm -rf" >&2; exit 2;; esac
exit 0
`)
	user, err := hooks.Parse([]byte(`{"hooks": {"PreToolUse": [{"matcher": "bash", "hooks": [{"type": "command",
		"command": "cat >> \"$CLAUDE_PROJECT_DIR/user.log\"; echo >> \"$CLAUDE_PROJECT_DIR/user.log\"; echo '{\"hookSpecificOutput\": {\"permissionDecision\": \"allow\"}}'"}]}]}}`), "user hooks.json")
	if err != nil {
		t.Fatal(err)
	}
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "delegate_guard", `{"task":"clean up"}`),
		call("k1", "bash", `{"action":"exec","command":"rm -rf build"}`),
		text("I may not"),
		call("c2", "bash", `{"action":"exec","command":"rm -rf build2"}`),
		text("done"),
	}}, approval.Auto, setup{root: root, defs: []Definition{d}, hooks: &hooks.Runner{Hooks: user, ProjectDir: root}})
	h.run("clean up")

	k1 := h.finished("k1")
	if !k1.IsError || !strings.Contains(string(k1.Result), "guard: no rm -rf") {
		t.Errorf("the child's rm -rf: %s", k1.Result)
	}
	if _, err := os.Stat(filepath.Join(root, "build")); err != nil {
		t.Error("the child's rm -rf ran")
	}
	var sources []string
	for _, r := range k1.Hooks {
		sources = append(sources, r.Source+": "+r.Verdict)
	}
	if strings.Join(sources, "; ") != "user: allow; agent guard: deny" {
		t.Errorf("the child's card shows hooks %q", sources)
	}
	if c2 := h.finished("c2"); c2.IsError {
		t.Errorf("the parent's call was stopped: %s", c2.Result)
	}
	if _, err := os.Stat(filepath.Join(root, "build2")); err == nil {
		t.Error("the parent's rm -rf did not run")
	}
	if log := readLog(t, filepath.Join(root, "agent.log")); strings.Count(log, "\n") != 1 ||
		!strings.Contains(log, `"tool_name":"Bash"`) || !strings.Contains(log, `"command":"rm -rf build"`) {
		t.Errorf("the agent's hook saw %q; want the child's call only", log)
	}
	if log := readLog(t, filepath.Join(root, "user.log")); !strings.Contains(log, "rm -rf build\"") || !strings.Contains(log, "rm -rf build2") {
		t.Errorf("the user's hook saw %q; want both calls", log)
	}
	if log := readLog(t, filepath.Join(root, "stop.log")); log != "stopped\n" {
		t.Errorf("the agent's Stop hook: %q", log)
	}
}

// plainLaunch runs a confined hook unconfined: for tests of when a
// workspace's hooks run (how they are confined: the exec test).
func plainLaunch(h hooks.Hook, dir string, env []string) (hooks.Launched, error) {
	cmd := exec.Command("sh", "-c", h.Command)
	cmd.Dir, cmd.Env = dir, env
	return hooks.Launched{Cmd: cmd, Kill: func() { cmd.Process.Kill() }, Release: func() {}}, nil
}

// An attacker's workspace definition with a PreToolUse hook: with the
// definitions trusted but the hooks not, the child runs and the hook
// never does (before and after the child); the hooks prompt lists it
// with its agent's name; once trusted it runs (confined); after its script
// changes it stops, and the prompt asks again.
func TestWorkspaceDefinitionHooksRunOnlyAsTrusted(t *testing.T) {
	root := t.TempDir()
	marker, mark := hookstest.AgentGuard(t, root, "")
	store := trust.NewStore(t.TempDir())
	c, _ := store.Waiting(root, trust.KindAgents)
	if err := store.TrustShown(root, trust.KindAgents, c.Hash); err != nil {
		t.Fatal(err)
	}
	defs, errs := Load(LoadOptions{Workspace: root, Trusted: WorkspaceTrust(store)})
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	var confined []string
	launch := func(hk hooks.Hook, dir string, env []string) (hooks.Launched, error) {
		confined = append(confined, hk.Command)
		return plainLaunch(hk, dir, env)
	}
	h := start(t, llmtest.Script{Responses: hookstest.DelegateTurns("guard", 3)}, approval.Auto, setup{root: root, defs: defs, hookTrust: store,
		hooks: &hooks.Runner{ProjectDir: root, Confine: launch}})

	h.run("one")
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("an untrusted workspace definition's hook ran")
	}
	if h.finished("k1").IsError {
		t.Fatalf("the child's call did not run: %s", h.finished("k1").Result)
	}
	w, err := hooks.Waiting(root, store)
	if err != nil || w == nil || len(w.Files) != 2 {
		t.Fatalf("the hooks prompt: %+v %v", w, err)
	}
	if f := w.Files[0]; f.Path != ".gatehouse/agents/guard.md" || f.Agent != "guard" || len(f.Commands) != 1 ||
		f.Commands[0] != "PreToolUse [Bash]: $CLAUDE_PROJECT_DIR/.hooks/mark.sh" || w.Files[1].Path != ".hooks/mark.sh" {
		t.Fatalf("the hooks prompt lists %+v", w.Files)
	}
	if err := hooks.TrustWorkspace(root, store, w.Hash); err != nil {
		t.Fatal(err)
	}

	h.run("two")
	if readLog(t, marker) != "ran\n" || len(confined) != 1 {
		t.Fatalf("the trusted hook did not run confined once: marker %q, confined %v", readLog(t, marker), confined)
	}
	os.Remove(marker)
	hookstest.Script(t, mark, "echo changed >> \"$CLAUDE_PROJECT_DIR/marker\"\n")

	h.run("three")
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a changed script ran on the old trust")
	}
	if w, _ := hooks.Waiting(root, store); w == nil || w.Hash == "" {
		t.Fatal("a changed script does not ask again")
	}
}
