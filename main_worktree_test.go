package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
)

// `gatehouse exec --worktree NAME` runs its turn in a new worktree session:
// the file it writes lands there, and the main worktree stays as it was.
func TestExecWorktreeRunsTheTurnInItsOwnWorktree(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	os.WriteFile(filepath.Join(home, ".gitconfig"), []byte("[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n"), 0o600)
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, ".gitconfig"))
	parent, _ := filepath.EvalSymlinks(t.TempDir())
	repo := filepath.Join(parent, "proj")
	os.Mkdir(repo, 0o755)
	os.WriteFile(filepath.Join(repo, "a.txt"), []byte("a\n"), 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "first"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "write_file", Arguments: llmtest.Text(`{"path":"a.txt","content":"from the worktree\n"}`)}}},
		{Text: llmtest.Text("Done.")},
	}})
	var out, errb bytes.Buffer
	code := run([]string{"exec", "--workspace", repo, "--worktree", "job", "--prompt", "change a", "--approval", "auto",
		"--base-url", srv.URL, "--model", "fake-model"}, &out, &errb)
	if code != 0 {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out.String(), errb.String())
	}
	wt := filepath.Join(parent, "proj.worktrees", "job")
	if !strings.Contains(errb.String(), "worktree "+wt) || !strings.Contains(errb.String(), "branch gatehouse/job (from main)") {
		t.Fatalf("stderr %q", errb.String())
	}
	if b, _ := os.ReadFile(filepath.Join(wt, "a.txt")); string(b) != "from the worktree\n" {
		t.Fatalf("worktree a.txt = %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(repo, "a.txt")); string(b) != "a\n" {
		t.Fatalf("the main worktree changed: %q", b)
	}
}
