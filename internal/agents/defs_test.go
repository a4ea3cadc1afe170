package agents

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/trust"
)

func writeDef(t *testing.T, dir, file, content string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, file)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestParseDefinition(t *testing.T) {
	d, err := Parse("r.md", []byte("---\nname: auditor\ndescription: \"Reviews a diff\"\ntools: [read_file, grep]  # only these\nmodel: small\nmaxSteps: 7\n---\nReview carefully.\n"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "auditor" || d.Description != "Reviews a diff" || !slices.Equal(d.Tools, []string{"read_file", "grep"}) ||
		d.Model != "small" || d.MaxSteps != 7 || d.Prompt != "Review carefully." || d.ReadOnly {
		t.Fatalf("%+v", d)
	}
	d, err = Parse("l.md", []byte("---\nname: lister\ndescription: lists\ntools:\n  - list_dir\n  - read-only\n---\n"))
	if err != nil || !d.ReadOnly || !slices.Equal(d.Tools, []string{"list_dir"}) {
		t.Fatalf("%+v %v", d, err)
	}
	p := d.Policy()
	if !p.ReadOnly || !p.Allowed["list_dir"] || p.Allowed["read_file"] {
		t.Errorf("policy %+v", p)
	}
	if g := (Definition{Name: "general"}).Policy(); g.ReadOnly || g.Allowed != nil {
		t.Errorf("general's policy %+v should allow all its parent has", g)
	}
	for content, want := range map[string]string{
		"name: x\n":                             "no front matter",
		"---\nname: x\n":                        "not closed",
		"---\nname: X y\ndescription: d\n---\n": "name",
		"---\nname: x\n---\n":                   "description is missing",
		"---\nname: x\ndescription: d\ncolor: red\n---\n":       "unknown key",
		"---\nname: x\ndescription: d\nmaxSteps: lots\n---\n":   "maxSteps",
		"---\nname: x\ndescription: d\ntools: read file\n---\n": "not a tool name",
	} {
		if _, err := Parse("bad.md", []byte(content)); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "bad.md") {
			t.Errorf("%q: %v, want %q", content, err, want)
		}
	}
}

// Built-ins, then the user's, then the trusted workspace's: a later one of
// the same name wins and says where it came from; an untrusted workspace's
// are not read; a broken file is reported and the rest load.
func TestLoadOrderAndTrust(t *testing.T) {
	user, ws := t.TempDir(), t.TempDir()
	userExplore := writeDef(t, filepath.Join(user, "agents"), "explore.md", "---\nname: explore\ndescription: mine\ntools: read_file\n---\n")
	writeDef(t, filepath.Join(user, "agents"), "broken.md", "no front matter")
	wsAuditor := writeDef(t, filepath.Join(ws, ".gatehouse", "agents"), "auditor.md", "---\nname: auditor\ndescription: ws\ntools: read-only\n---\n")
	writeDef(t, filepath.Join(ws, ".gatehouse", "agents"), "explore.md", "---\nname: explore\ndescription: the workspace's\n---\n")

	byName := func(ds []Definition) map[string]Definition {
		m := map[string]Definition{}
		for _, d := range ds {
			m[d.Name] = d
		}
		return m
	}
	defs, errs := Load(LoadOptions{UserDir: user, Workspace: ws, Trusted: func(string) *trust.Content { return nil }})
	m := byName(defs)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "broken.md") {
		t.Errorf("errors %v", errs)
	}
	if m["explore"].Source != userExplore || m["explore"].Description != "mine" || m["plan"].Source != "built-in" {
		t.Errorf("untrusted: %+v", m)
	}
	if _, ok := m["auditor"]; ok {
		t.Error("an untrusted workspace's definition loaded")
	}
	defs, _ = Load(LoadOptions{UserDir: user, Workspace: ws, Trusted: func(ws string) *trust.Content {
		c, _ := trust.Read(ws, trust.KindAgents)
		return &c
	}})
	m = byName(defs)
	if m["auditor"].Source != wsAuditor || m["explore"].Description != "the workspace's" || len(defs) != 5 {
		t.Errorf("trusted: %+v", defs)
	}
	if !slices.IsSortedFunc(defs, func(a, b Definition) int { return strings.Compare(a.Name, b.Name) }) {
		t.Error("not sorted by name")
	}
}

// With folder trust: the workspace's definitions load once its
// .gatehouse/agents/ is trusted as it is, and stop loading when a file in
// it changes (the user is asked again).
func TestWorkspaceDefinitionsFollowFolderTrust(t *testing.T) {
	cfg, ws := t.TempDir(), t.TempDir()
	dir := filepath.Join(ws, ".gatehouse", "agents")
	writeDef(t, dir, "auditor.md", "---\nname: auditor\ndescription: ws\ntools: read-only\n---\n")
	store := trust.NewStore(cfg)
	o := LoadOptions{UserDir: cfg, Workspace: ws, Trusted: WorkspaceTrust(store)}
	has := func() bool {
		defs, _ := Load(o)
		return slices.ContainsFunc(defs, func(d Definition) bool { return d.Name == "auditor" })
	}
	if has() {
		t.Fatal("an untrusted workspace's definition loaded")
	}
	c, err := trust.Read(ws, trust.KindAgents)
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Trust(ws, trust.KindAgents, c); err != nil {
		t.Fatal(err)
	}
	if !has() {
		t.Fatal("the trusted workspace's definition did not load")
	}
	writeDef(t, dir, "auditor.md", "---\nname: auditor\ndescription: changed\ntools: write_file\n---\n")
	if has() {
		t.Error("a changed definition loaded under the old trust")
	}
}

// The built-in reviewer only reads and reports findings; the user's own
// reviewer.md replaces it, as any definition of the same name does.
func TestBuiltinReviewerIsReadOnlyAndOverridable(t *testing.T) {
	user := t.TempDir()
	defs, _ := Load(LoadOptions{})
	i := slices.IndexFunc(defs, func(d Definition) bool { return d.Name == ReviewerAgent })
	if i < 0 || !readsOnly(defs[i]) || !slices.Contains(defs[i].Tools, FindingsTool) || slices.Contains(defs[i].Tools, "bash") {
		t.Fatalf("built-in reviewer: %+v", defs)
	}
	mine := writeDef(t, filepath.Join(user, "agents"), "reviewer.md", "---\nname: reviewer\ndescription: mine\ntools: [read_file, report_findings]\n---\nBe strict.\n")
	defs, _ = Load(LoadOptions{UserDir: user})
	i = slices.IndexFunc(defs, func(d Definition) bool { return d.Name == ReviewerAgent })
	if defs[i].Source != mine || defs[i].Prompt != "Be strict." || !readsOnly(defs[i]) {
		t.Fatalf("the user's reviewer: %+v", defs[i])
	}
}
