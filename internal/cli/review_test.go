package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/agents"
	"gatehouse/internal/gitcmd"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/review"
)

// reviewRepo is a repository with one commit and an uncommitted change
// of a.txt's second line.
func reviewRepo(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	global := filepath.Join(home, "gitconfig")
	os.WriteFile(global, []byte("[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n"), 0o600)
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	dir := t.TempDir()
	git := func(args ...string) {
		if _, err := gitcmd.Run(context.Background(), "", dir, nil, nil, args...); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644)
	git("add", "-A")
	git("commit", "-q", "-m", "first")
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\n2\nthree\n"), 0o644)
	return dir
}

// reviewScript reports findings of the given severities on a.txt:2, then
// sums up.
func reviewScript(sevs ...string) llmtest.Script {
	var fs []map[string]any
	for _, s := range sevs {
		fs = append(fs, map[string]any{"severity": s, "file": "a.txt", "startLine": 2, "endLine": 2, "title": s + " thing", "explanation": "it is " + s})
	}
	b, _ := json.Marshal(map[string]any{"findings": fs})
	return llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: agents.FindingsTool, Arguments: llmtest.Text(string(b))}}},
		{Text: llmtest.Text("Reviewed.")},
	}}
}

func runReview(t *testing.T, script *llmtest.Script, args ...string) execResult {
	t.Helper()
	env := testEnv(t, nil)
	if script != nil {
		srv := llmtest.Start(t, *script)
		args = append(args, "--base-url", srv.URL, "--model", "fake-model")
	}
	var out, errb bytes.Buffer
	code := Review(context.Background(), args, env, strings.NewReader(""), &out, &errb)
	return execResult{code, out.String(), errb.String()}
}

// gatehouse review --json: one finding per line; exit 5 when one is at or
// above --fail-on (default high), 0 when none is.
func TestReviewJSONExitCodes(t *testing.T) {
	dir := reviewRepo(t)
	s := reviewScript("high", "low")
	r := runReview(t, &s, "--workspace", dir, "--json")
	if r.code != ExitFindings {
		t.Fatalf("exit %d, want 5; stderr:\n%s", r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 2 {
		t.Fatalf("stdout %q", r.stdout)
	}
	var f review.Finding
	if err := json.Unmarshal([]byte(lines[0]), &f); err != nil || f.Severity != review.High || f.File != "a.txt" || f.HunkID == "" || f.ID != "f1" {
		t.Fatalf("first line %s: %+v %v", lines[0], f, err)
	}
	if !strings.Contains(r.stderr, "Reviewed.") {
		t.Errorf("stderr %q", r.stderr)
	}

	s = reviewScript("medium", "low")
	if r := runReview(t, &s, "--workspace", dir, "--json"); r.code != ExitOK {
		t.Fatalf("medium and low with the default --fail-on high: exit %d\n%s", r.code, r.stderr)
	}
	if r := runReview(t, &llmtest.Script{}, "--workspace", dir, "--fail-on", "medium", "--staged"); r.code != ExitOK || r.stdout != "" {
		t.Fatalf("nothing staged: exit %d, stdout %q\n%s", r.code, r.stdout, r.stderr)
	}
	s = reviewScript("medium")
	r = runReview(t, &s, "--workspace", dir, "--fail-on", "medium")
	if r.code != ExitFindings || !strings.HasPrefix(r.stdout, "MEDIUM a.txt:2 medium thing\n    it is medium\n") {
		t.Fatalf("--fail-on medium: exit %d, stdout %q", r.code, r.stdout)
	}
}

// Errors exit 1: the reviewer's model fails, the folder is no repository.
// Bad usage exits 2.
func TestReviewErrorAndUsageExitCodes(t *testing.T) {
	dir := reviewRepo(t)
	failing := llmtest.Script{Responses: []llmtest.Response{{Error: &llmtest.APIError{Status: 400, Code: "bad", Message: "no"}}}}
	if r := runReview(t, &failing, "--workspace", dir, "--json"); r.code != ExitError || !strings.Contains(r.stderr, "reviewer stopped") {
		t.Fatalf("a failing model: exit %d\n%s", r.code, r.stderr)
	}
	if r := runReview(t, &llmtest.Script{}, "--workspace", t.TempDir()); r.code != ExitError || !strings.Contains(r.stderr, "not a git repository") {
		t.Fatalf("not a repository: exit %d\n%s", r.code, r.stderr)
	}
	for _, args := range [][]string{
		{"--staged", "--commit", "HEAD"},
		{"--fail-on", "urgent"},
		{"--base", "-x"},
		{"extra"},
		{"--approval", "plan"},
	} {
		if r := runReview(t, nil, append([]string{"--workspace", dir}, args...)...); r.code != ExitUsage {
			t.Errorf("%v: exit %d, want 2\n%s", args, r.code, r.stderr)
		}
	}
}
