package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"gatehouse/internal/gitcmd/gittest"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/team/teamtest"
)

// exec --experimental teams gives the lead the team tools and ends when
// the team is quiet: a teammate's message to the lead, after the lead's
// first turn ended, starts a turn of the lead's, and exec waits for it.
// --json prints the teammate's events with its name.
func TestExecTeamEndsWhenQuiet(t *testing.T) {
	srv := llmtest.Start(t, teamtest.ScoutReports())
	env := testEnv(t, nil)
	ws := t.TempDir()
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "make a team", "--experimental", "teams",
		"--approval", "safe", "--base-url", srv.URL, "--model", "fake-model", "--json")
	if r.code != ExitCompleted {
		t.Fatalf("exit %d; stderr:\n%s\n%s", r.code, r.stderr, r.stdout)
	}
	evs := parseEvents(t, r.stdout)
	var mates, sent int
	told := false
	for _, e := range evs {
		if e.Teammate != "" {
			if e.Teammate != "scout" || e.Agent != "scout" || e.ParentCallID != "s1" {
				t.Errorf("teammate event %+v", e)
			}
			mates++
		}
		switch p := e.Payload.(type) {
		case protocol.TeamMessage:
			sent++
		case protocol.MessageDonePayload:
			told = told || (e.ParentCallID == "" && p.Text == "scout found a.txt")
		}
	}
	if mates == 0 || sent != 1 || !told {
		t.Fatalf("teammate events %d, messages %d, the lead read the message: %v\n%s", mates, sent, told, r.stdout)
	}
}

func TestExecRefusesAnUnknownExperiment(t *testing.T) {
	r := runExec(t, context.Background(), testEnv(t, nil), "--workspace", t.TempDir(), "--prompt", "x", "--experimental", "swarms")
	if r.code != ExitUsage {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
}

// A teammate spawned in its own worktree gets the untracked files the
// settings' worktreeCopy names, as a worktree session made in the window
// does: exec --experimental teams, the lead in a repository with an
// untracked config/local.json.
func TestExecTeammatesWorktreeGetsTheSettingsUntrackedFiles(t *testing.T) {
	gittest.Home(t)
	parent, _ := filepath.EvalSymlinks(t.TempDir())
	repo := filepath.Join(parent, "proj")
	os.MkdirAll(filepath.Join(repo, "config"), 0o755)
	os.WriteFile(filepath.Join(repo, "README.md"), []byte("hello\n"), 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "first"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	os.WriteFile(filepath.Join(repo, "config", "local.json"), []byte(`{"port": 8080}`+"\n"), 0o600) // untracked

	call := func(id, name, args string) llmtest.Response {
		return llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: id, Name: name, Arguments: llmtest.Text(args)}}}
	}
	text := func(s string) llmtest.Response { return llmtest.Response{Text: llmtest.Text(s)} }
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		call("s1", "team_spawn", `{"name":"scout","agent":"explore","task":"look around","worktree":true}`),
	}, When: []llmtest.Rule{
		{LastContains: "You are scout", Response: text("looked")},
		{LastContains: `name\":\"scout`, Response: text("scout started")},
		{LastContains: "[team", Response: text("noted")},
	}})
	env := testEnv(t, nil)
	os.MkdirAll(env.ConfigDir, 0o755)
	os.WriteFile(filepath.Join(env.ConfigDir, "settings.json"), []byte(`{"approvalMode":"auto","theme":"system","worktreeCopy":["config/local.json"]}`), 0o644)
	r := runExec(t, context.Background(), env, "--workspace", repo, "--prompt", "make a team", "--experimental", "teams",
		"--approval", "auto", "--base-url", srv.URL, "--model", "fake-model")
	if r.code != ExitCompleted {
		t.Fatalf("exit %d; stderr:\n%s\n%s", r.code, r.stderr, r.stdout)
	}
	wt := filepath.Join(parent, "proj.worktrees", "team-scout")
	if b, err := os.ReadFile(filepath.Join(wt, "README.md")); err != nil || string(b) != "hello\n" {
		t.Fatalf("scout's worktree was not made: %q, %v\n%s", b, err, r.stdout)
	}
	if b, err := os.ReadFile(filepath.Join(wt, "config", "local.json")); err != nil || string(b) != `{"port": 8080}`+"\n" {
		t.Fatalf("the untracked file in scout's worktree: %q, %v", b, err)
	}
}
