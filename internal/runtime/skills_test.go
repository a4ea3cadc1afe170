package runtime

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/skills"
)

// userSkill writes a skill folder in home's ~/.agents/skills, as another
// agent's user keeps it (extra keys, a Python script, a reference), and
// returns its folder.
func userSkill(t *testing.T, home string) string {
	t.Helper()
	dir := filepath.Join(home, ".agents", "skills", "pdf")
	for _, d := range []string{"scripts", "references"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: pdf\ndescription: >\n  Fill PDF forms.\n  Use when: the user has a PDF.\nallowed-tools: Bash(python3:*)\nversion: 1.2\n---\n# PDF\n\nRun scripts/fill.py; see references/forms.md.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "scripts", "fill.py"), []byte("print('filled')\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "references", "forms.md"), []byte("# Forms reference\nfield names\n"), 0o644)
	real, _ := filepath.EvalSymlinks(dir)
	return real
}

func args(v any) llmtest.Fragments {
	b, _ := json.Marshal(v)
	return llmtest.Text(string(b))
}

// The model loads a user's skill, reads a reference from its folder by the
// path the catalog gives, cannot write there even in auto, and the skill's
// instructions come back after a checkpoint summary.
func TestSkillFromOutsideIsReadOnlyAndSurvivesCompaction(t *testing.T) {
	home := t.TempDir()
	dir := userSkill(t, home)
	cat := skills.NewCatalog(skills.Options{Home: home, Protected: []string{}})
	patch := "*** Begin Patch\n*** Add File: " + filepath.Join(dir, "scripts", "evil.py") + "\n+import os\n*** End Patch\n"
	h := start(t, llmtest.Script{
		When: []llmtest.Rule{{LastContains: "checkpoint summary", Response: llmtest.Response{Text: llmtest.Text("SUMMARY: PDFs.")}}},
		Responses: []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "skill", Arguments: args(map[string]string{"name": "pdf"})}}},
			{ToolCalls: []llmtest.ToolCall{{ID: "c2", Name: "read_file", Arguments: args(map[string]string{"path": filepath.Join(dir, "references", "forms.md")})}}},
			{ToolCalls: []llmtest.ToolCall{{ID: "c3", Name: "write_file", Arguments: args(map[string]string{"path": filepath.Join(dir, "scripts", "fill.py"), "content": "evil"})}}},
			{ToolCalls: []llmtest.ToolCall{{ID: "c4", Name: "apply_patch", Arguments: args(map[string]string{"patch": patch})}}},
			{ToolCalls: []llmtest.ToolCall{{ID: "c5", Name: "skill", Arguments: args(map[string]string{"name": "pdf"})}}},
			{Text: llmtest.Text("Done.")},
			{Text: llmtest.Text("Still filling.")},
		},
	}, approval.Auto, nil, func(o *Options) {
		ws, err := o.Workspace.WithReadOnly(cat.Set().ReadOnlyRoots()...)
		if err != nil {
			t.Fatal(err)
		}
		o.Workspace, cat.Rel = ws, ws.Rel
		o.Providers = append(o.Providers, cat)
	})
	if r := h.run("fill the form"); r != protocol.StopCompleted {
		t.Fatalf("turn: %s", r)
	}
	if got := h.toolResult("c1"); !strings.Contains(got, "Run scripts/fill.py") || !strings.Contains(got, "references/forms.md") {
		t.Errorf("activation: %s", got)
	}
	if got := h.toolResult("c2"); !strings.Contains(got, "Forms reference") {
		t.Errorf("read_file of the skill's reference: %s", got)
	}
	for _, id := range []string{"c3", "c4"} {
		if got := h.toolResult(id); !strings.Contains(got, "read_only_root") && !strings.Contains(got, "read-only root") {
			t.Errorf("%s into the skill folder in auto: %s", id, got)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "scripts", "fill.py")); string(b) != "print('filled')\n" {
		t.Errorf("the skill's script changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "scripts", "evil.py")); err == nil {
		t.Errorf("apply_patch added a file to the skill")
	}
	if got := h.toolResult("c5"); !strings.Contains(got, "already loaded") || strings.Contains(got, "Run scripts/fill.py") {
		t.Errorf("second activation: %s", got)
	}
	if err := h.sess.Compact(); err != nil {
		t.Fatal(err)
	}
	if r := h.run("and now?"); r != protocol.StopCompleted {
		t.Fatalf("turn after compaction: %s", r)
	}
	reqs := h.srv.ModelRequests()
	body := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(body, "SUMMARY: PDFs.") || !strings.Contains(body, "## Skill pdf") || !strings.Contains(body, "Run scripts/fill.py") {
		t.Errorf("the request after the summary lacks the skill's instructions: %.3000s", body)
	}
}

// A subfolder's AGENTS.md reaches the model after it first read a file
// there, naming the folder; the user's own comes in the system prompt.
func TestNestedAgentsMDToldWhenAFileBelowIsRead(t *testing.T) {
	conf := t.TempDir()
	os.WriteFile(filepath.Join(conf, "AGENTS.md"), []byte("USER-WIDE RULE"), 0o644)
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "read_file", `{"path":"api/handler.go"}`),
		text("Read."),
	}}, approval.Auto, map[string]string{"AGENTS.md": "ROOT RULE", "api/AGENTS.md": "API RULE", "api/handler.go": "package api"},
		func(o *Options) { o.ConfigDir = conf })
	if r := h.run("look at the handler"); r != protocol.StopCompleted {
		t.Fatalf("turn: %s", r)
	}
	reqs := h.srv.ModelRequests()
	first, second := string(reqs[0].Body), string(reqs[1].Body)
	if !strings.Contains(first, "USER-WIDE RULE") || !strings.Contains(first, "ROOT RULE") || strings.Contains(first, "API RULE") {
		t.Errorf("first request: %.2000s", first)
	}
	if !strings.Contains(second, "API RULE") || !strings.Contains(second, "folder api/") {
		t.Errorf("the request after reading api/handler.go lacks api/AGENTS.md: %.3000s", second)
	}
	if files := h.sess.Instructions(); len(files) != 3 || files[2].Path != "api/AGENTS.md" || files[2].Because != "api/handler.go" || files[1].Because != "" {
		t.Errorf("files told: %+v", files)
	}
}
