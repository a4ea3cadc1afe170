package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/policy"
)

// TestExecAlwaysOnTheTerminal: "a" at exec's prompt saves the offered rule
// in the user's file for the workspace and says where; the next exec, with
// no terminal to ask on, runs the same command under it, and a line that
// adds to it is still rejected.
func TestExecAlwaysOnTheTerminal(t *testing.T) {
	env := testEnv(t, nil)
	ws := t.TempDir()
	call := func(id, cmd string) llmtest.Response {
		return llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: id, Name: "bash", Arguments: llmtest.Text(`{"action":"exec","command":` + strconvQuote(cmd) + `}`)}}}
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		call("call_1", "mkdir made"), {Text: llmtest.Text("Made.")},
		call("call_2", "mkdir made"), {Text: llmtest.Text("Made again.")},
		call("call_3", "mkdir made && mkdir other"),
	}})
	args := []string{"--workspace", ws, "--prompt", "make it", "--base-url", srv.URL, "--model", "fake-model", "--approval", "safe"}
	where := policy.Where{ConfigDir: env.ConfigDir, Workspace: ws}
	code, _, screen := answerOnTerminal(t, env, "a", args...)
	if code != ExitCompleted {
		t.Fatalf("exit %d; terminal:\n%s", code, screen)
	}
	for _, want := range []string{"[a] always, for this workspace (saved in " + where.WorkspaceFile() + ")",
		"[e] always, everywhere (saved in " + where.UserFile() + ")", "saved rule p-", "in " + where.WorkspaceFile()} {
		if !strings.Contains(screen, want) {
			t.Errorf("no %q on the terminal:\n%s", want, screen)
		}
	}
	p := policy.Load(where)
	if len(p.Rules) != 1 || p.Rules[0].Layer != policy.LayerWorkspace || p.Rules[0].Decision != "allow" {
		t.Fatalf("saved: %+v", p)
	}

	// No terminal now: a call that asks would be rejected. The rule runs it.
	os.Remove(filepath.Join(ws, "made"))
	if r := runExec(t, t.Context(), env, args...); r.code != ExitCompleted {
		t.Fatalf("second run: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "made")); err != nil {
		t.Fatal("the rule-approved command did not run")
	}
	if r := runExec(t, t.Context(), env, args...); r.code != ExitBlockedByApproval {
		t.Fatalf("a longer line rode the rule: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "other")); err == nil {
		t.Fatal("mkdir other ran")
	}
}
