package agents

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/trust"
)

const scrutineerDef = "---\nname: scrutineer\ndescription: Reviews a diff.\ntools: read_file, grep\n---\nReview it.\n"

// A workspace definition is offered as delegate_scrutineer only after the
// user trusts the folder as the prompt showed it, from the next model
// request on; a change takes it off and asks again.
func TestWorkspaceDefinitionOfferedAfterTrust(t *testing.T) {
	cfg := t.TempDir()
	h := start(t, llmtest.Script{Responses: []llmtest.Response{text("one"), text("two"), text("three")}}, approval.Safe,
		setup{tree: map[string]string{".gatehouse/agents/scrutineer.md": scrutineerDef, ".gatehouse/agents/notes.txt": "x"}})
	store := trust.NewStore(cfg)
	o := HostOptions{ConfigDir: cfg, Trusted: WorkspaceTrust(store)}
	offered := func(i int) bool { return slices.Contains(requestTools(t, h.srv, i), "delegate_scrutineer") }

	p, errs := h.m.Check(store, o)
	if len(errs) > 0 || p == nil {
		t.Fatalf("no prompt for an untrusted folder: %v %v", p, errs)
	}
	if len(p.Files) != 2 || p.Files[1].Path != ".gatehouse/agents/scrutineer.md" || p.Files[1].Definition == nil ||
		p.Files[1].Definition.Description != "Reviews a diff." || !slices.Equal(p.Files[1].Definition.Tools, []string{"read_file", "grep"}) {
		t.Fatalf("prompt files: %+v", p.Files)
	}
	if p.Files[0].Path != ".gatehouse/agents/notes.txt" || p.Files[0].Error == "" {
		t.Errorf("a file that is no definition is not said so: %+v", p.Files[0])
	}
	h.run("hi")
	if offered(0) {
		t.Fatal("an untrusted workspace definition was offered")
	}

	if _, err := h.m.Trust(store, o, p.Hash); err != nil {
		t.Fatal(err)
	}
	h.run("again")
	if !offered(1) {
		t.Fatalf("delegate_scrutineer not offered after Trust: %v", requestTools(t, h.srv, 1))
	}
	if p, _ := h.m.Check(store, o); p != nil {
		t.Fatalf("asked again for trusted definitions: %+v", p)
	}

	changed := "---\nname: scrutineer\ndescription: Now writes.\ntools: write_file\n---\n"
	if err := os.WriteFile(filepath.Join(h.root, ".gatehouse", "agents", "scrutineer.md"), []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	p2, _ := h.m.Check(store, o)
	if p2 == nil || p2.Hash == p.Hash || p2.Files[1].Definition.Description != "Now writes." {
		t.Fatalf("a changed definition did not ask again: %+v", p2)
	}
	if _, err := h.m.Trust(store, o, p.Hash); !errors.Is(err, ErrChanged) {
		t.Errorf("trusting the old content of a changed folder: %v, want ErrChanged", err)
	}
	h.run("third")
	if offered(2) {
		t.Error("a definition changed since trust was still offered")
	}
}
