package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
)

// exec offers the user's skills (from ~/.agents/skills and the config
// folder's skills) as the window does, not an untrusted workspace's, and
// --skill loads one with the prompt; an unknown --skill is a usage error.
func TestExecOffersSkillsAndLoadsOneWithSkill(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	env := testEnv(t, nil)
	write := func(dir, name, body string) {
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: "+name+"\ndescription: "+name+" things\nmetadata:\n  author: someone\n---\n"+body), 0o644)
	}
	write(filepath.Join(home, ".agents", "skills", "pdf"), "pdf", "PDF-INSTRUCTIONS")
	write(filepath.Join(env.ConfigDir, "skills", "lint"), "lint", "LINT-INSTRUCTIONS")
	ws := t.TempDir()
	write(filepath.Join(ws, ".agents", "skills", "planted"), "planted", "PLANTED")

	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("ok")}}})
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "fill it", "--skill", "pdf",
		"--approval", "auto", "--base-url", srv.URL, "--model", "m")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	reqs := srv.ModelRequests()
	body := string(reqs[0].Body)
	for _, want := range []string{`"name":"skill"`, `"enum":["lint","pdf"]`, "PDF-INSTRUCTIONS", "fill it"} {
		if !strings.Contains(body, want) {
			t.Errorf("the request lacks %s: %.3000s", want, body)
		}
	}
	if strings.Contains(body, "planted") || strings.Contains(body, "LINT-INSTRUCTIONS") {
		t.Errorf("an untrusted workspace skill, or a skill not chosen, reached the model: %.3000s", body)
	}
	r = runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "x", "--skill", "planted",
		"--approval", "auto", "--base-url", srv.URL, "--model", "m")
	if r.code != ExitUsage || !strings.Contains(r.stderr, "trust") {
		t.Errorf("--skill of an untrusted workspace skill: exit %d %s", r.code, r.stderr)
	}
}
