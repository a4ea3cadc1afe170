package agents

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/skills"
	"gatehouse/internal/tools"
)

// A child agent gets the parent's skills catalog when its tools include
// skill, and loads a skill into its own session (the parent's stays
// unloaded); a child whose tools leave skill out is not offered it.
func TestChildGetsTheParentsCatalogFilteredByItsTools(t *testing.T) {
	home := t.TempDir()
	dir := filepath.Join(home, ".agents", "skills", "pdf")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: pdf\ndescription: Fill PDF forms\n---\nPDF-STEPS\n"), 0o644)
	cat := skills.NewCatalog(skills.Options{Home: home, Protected: []string{}})
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "delegate_reader", `{"task":"fill the form"}`),
		call("k1", "skill", `{"name":"pdf"}`),
		text("filled"),
		call("c2", "delegate_lister", `{"task":"list"}`),
		text("listed"),
		text("done"),
	}}, approval.Auto, setup{providers: []tools.Provider{cat}, defs: []Definition{
		{Name: "reader", Description: "reads", Tools: []string{"read_file", "skill"}, Source: "test"},
		{Name: "lister", Description: "lists", Tools: []string{"list_dir"}, Source: "test"},
	}})
	h.run("go")
	if parent := requestTools(t, h.srv, 0); !slices.Contains(parent, "skill") {
		t.Fatalf("the parent is not offered skill: %v", parent)
	}
	if reader := requestTools(t, h.srv, 1); !slices.Contains(reader, "skill") {
		t.Errorf("a child whose tools include skill is not offered it: %v", reader)
	}
	if lister := requestTools(t, h.srv, 4); slices.Contains(lister, "skill") {
		t.Errorf("a child whose tools leave skill out is offered it: %v", lister)
	}
	if body := string(request(t, h.srv, 2)); !strings.Contains(body, "PDF-STEPS") {
		t.Errorf("the child's skill call did not load the skill: %.2000s", body)
	}
	if len(cat.Loaded()) != 0 {
		t.Errorf("the child's activation loaded the skill into the parent: %+v", cat.Loaded())
	}
}
