package skills

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/trust"
)

func writeSkill(t *testing.T, dir, folder, text string) string {
	t.Helper()
	d := filepath.Join(dir, folder)
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(d, "SKILL.md"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return d
}

func skillText(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n# " + name + "\n\nDo the thing.\n"
}

func TestParseRules(t *testing.T) {
	cases := []struct {
		name, folder, text string
		problem            string // substring; "" none
		problemLine        int
		warn               string // substring of a warning; "" none
		warnLine           int
	}{
		{name: "folded description", folder: "pdf", text: "---\nname: pdf\ndescription: >\n  Fill PDF forms.\n  Use when asked.\n---\nbody"},
		{name: "unquoted colon repaired", folder: "pdf", text: "---\nname: pdf\ndescription: Use when: the user asks for PDFs\n---\nbody"},
		{name: "no front matter", folder: "x", text: "# just text", problem: "no front matter", problemLine: 1},
		{name: "unclosed", folder: "x", text: "---\nname: x\n", problem: "no closing", problemLine: 1},
		{name: "no description", folder: "x", text: "---\nname: x\nlicense: MIT\n---\nbody", problem: "no description", problemLine: 1},
		{name: "empty description", folder: "x", text: "---\nname: x\ndescription: \"\"\n---\n", problem: "description is empty", problemLine: 3},
		{name: "bad yaml", folder: "x", text: "---\nname: x\ndescription: ok\n\tmetadata: 2\n---\n", problem: "not valid YAML", problemLine: 4},
		{name: "not a mapping", folder: "x", text: "---\n- a\n- b\n---\n", problem: "not a list of keys", problemLine: 2},
		{name: "name differs", folder: "folder", text: "---\ndescription: d\nname: other\n---\n", warn: "differs from its folder", warnLine: 3},
		{name: "uppercase", folder: "Bad", text: "---\nname: Bad\ndescription: d\n---\n", warn: "only lowercase", warnLine: 2},
		{name: "double hyphen", folder: "a--b", text: "---\nname: a--b\ndescription: d\n---\n", warn: "two hyphens", warnLine: 2},
		{name: "leading hyphen", folder: "-a", text: "---\nname: -a\ndescription: d\n---\n", warn: "starts or ends", warnLine: 2},
		{name: "too long", folder: strings.Repeat("a", 65), text: "---\nname: " + strings.Repeat("a", 65) + "\ndescription: d\n---\n", warn: "longer than 64", warnLine: 2},
		{name: "unicode lowercase ok", folder: "café-文档", text: "---\nname: café-文档\ndescription: d\n---\n"},
		{name: "unknown key", folder: "x", text: "---\nname: x\ndescription: d\nversion: 2\n---\n", warn: `unknown key "version"`, warnLine: 4},
		{name: "long description", folder: "x", text: "---\nname: x\ndescription: " + strings.Repeat("d", 1025) + "\n---\n", warn: "more than 1024", warnLine: 3},
		{name: "crlf", folder: "x", text: "---\r\nname: x\r\ndescription: d\r\n---\r\nbody"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := parse(c.folder, []byte(c.text))
			if c.problem == "" && p.Problem != nil {
				t.Fatalf("problem %v", p.Problem)
			}
			if c.problem != "" {
				if p.Problem == nil || !strings.Contains(p.Problem.Message, c.problem) || p.Problem.Line != c.problemLine {
					t.Fatalf("problem %+v, want %q at line %d", p.Problem, c.problem, c.problemLine)
				}
				return
			}
			if p.Description == "" {
				t.Errorf("no description read")
			}
			found := false
			for _, w := range p.Warnings {
				if c.warn != "" && strings.Contains(w.Message, c.warn) && w.Line == c.warnLine {
					found = true
				}
			}
			if c.warn == "" && len(p.Warnings) > 0 {
				t.Errorf("warnings %v, want none", p.Warnings)
			}
			if c.warn != "" && !found {
				t.Errorf("warnings %v, want %q at line %d", p.Warnings, c.warn, c.warnLine)
			}
		})
	}
	p := parse("pdf", []byte("---\nname: pdf\ndescription: >\n  Fill PDF forms.\n  Use when asked.\n---\nbody"))
	if p.Description != "Fill PDF forms. Use when asked." {
		t.Errorf("folded description %q", p.Description)
	}
	p = parse("pdf", []byte("---\nname: pdf\ndescription: Use when: the user asks\n---\nbody"))
	if p.Description != "Use when: the user asks" {
		t.Errorf("colon description %q", p.Description)
	}
}

type env struct {
	home, config, ws string
	store            *trust.Store
}

func newEnv(t *testing.T) env {
	base := t.TempDir()
	e := env{home: filepath.Join(base, "home"), config: filepath.Join(base, "home", ".config", "gatehouse"), ws: filepath.Join(base, "ws")}
	for _, d := range []string{e.home, e.config, e.ws} {
		os.MkdirAll(d, 0o755)
	}
	e.store = trust.NewStore(e.config)
	return e
}

func (e env) opts() Options {
	return Options{Home: e.home, ConfigDir: e.config, Workspace: e.ws, Trust: e.store, Protected: []string{e.config}}
}

func TestDiscoveryPrecedence(t *testing.T) {
	e := newEnv(t)
	claude := writeSkill(t, filepath.Join(e.home, ".claude", "skills"), "review", skillText("review", "from claude"))
	user := writeSkill(t, UserDir(e.config), "review", skillText("review", "from gatehouse"))
	agents := writeSkill(t, filepath.Join(e.home, ".agents", "skills"), "review", skillText("review", "from agents"))
	writeSkill(t, filepath.Join(e.home, ".agents", "skills"), "lint", skillText("lint", "lints"))
	os.MkdirAll(filepath.Join(e.home, ".agents", "skills", "not-a-skill"), 0o755)

	set := Discover(e.opts())
	if k, _ := set.Find("review"); k.Description != "from agents" || k.Source != SourceAgents {
		t.Fatalf("review from %+v, want ~/.agents (the later source)", k)
	}
	for _, k := range set.Skills {
		if k.Dir == user && k.ShadowedBy != agents {
			t.Errorf("the user's review should say ~/.agents shadows it: %+v", k)
		}
		if k.Dir == agents && (len(k.Shadows) != 1 || k.Shadows[0] != user) {
			t.Errorf("the winner should name what it shadows: %+v", k)
		}
		if k.Dir == claude {
			t.Errorf("~/.claude/skills is read only when turned on")
		}
	}
	if len(set.Skills) != 3 {
		t.Errorf("skills %+v: want 3 (no folder without SKILL.md)", set.Skills)
	}
	o := e.opts()
	o.Claude = true
	set = Discover(o)
	if set.Skills[0].Dir != claude || set.Skills[0].ShadowedBy != user {
		t.Errorf("claude's, turned on, comes first and is shadowed: %+v", set.Skills[0])
	}
	o.Disabled = []string{"lint"}
	if _, ok := Discover(o).Find("lint"); ok {
		t.Errorf("a skill turned off is offered")
	}
	if got := set.ReadOnlyRoots(); len(got) != 2 {
		t.Errorf("read-only roots %v: want review (agents) and lint", got)
	}
}

func TestWorkspaceSkillsNeedTrustAndAskAgainAfterAChange(t *testing.T) {
	e := newEnv(t)
	writeSkill(t, filepath.Join(e.ws, ".agents", "skills"), "deploy", skillText("deploy", "deploys"))
	os.MkdirAll(filepath.Join(e.ws, ".agents", "skills", "deploy", "scripts"), 0o755)
	script := filepath.Join(e.ws, ".agents", "skills", "deploy", "scripts", "run.py")
	os.WriteFile(script, []byte("print('hi')\n"), 0o644)
	c := NewCatalog(e.opts())
	if len(c.Tools()) != 0 || c.Set().Waiting == nil {
		t.Fatalf("an untrusted workspace skill is offered, or nothing asks: %+v", c.Set())
	}
	if _, err := c.Activate("deploy"); err == nil || !strings.Contains(err.Error(), "trust") {
		t.Fatalf("activating an untrusted skill: %v", err)
	}
	if err := e.store.TrustShown(e.ws, trust.KindSkills, c.Set().Waiting.Hash); err != nil {
		t.Fatal(err)
	}
	c.Reload() // what the host does once the user trusted them
	if len(c.Tools()) != 1 || !strings.Contains(c.Text(), "deploy: deploys") {
		t.Fatalf("trusted skill not offered in the same session: %q", c.Text())
	}
	// A change to any file of the skill (its script here) asks again.
	os.WriteFile(script, []byte("import os; os.system('evil')\n"), 0o644)
	if _, err := c.Activate("deploy"); err == nil {
		t.Fatalf("a changed workspace skill still activates")
	}
	if c.Set().Waiting == nil {
		t.Errorf("a changed skill should ask again")
	}
}

// pdfCatalog offers one user skill, pdf, with allowed-tools and a reference.
func pdfCatalog(t *testing.T) *Catalog {
	t.Helper()
	e := newEnv(t)
	d := writeSkill(t, filepath.Join(e.home, ".agents", "skills"), "pdf",
		"---\nname: pdf\ndescription: PDFs\nallowed-tools: Bash(python:*) Read\n---\nUse scripts/fill.py.\n")
	os.MkdirAll(filepath.Join(d, "references"), 0o755)
	os.WriteFile(filepath.Join(d, "references", "forms.md"), []byte("# forms"), 0o644)
	c := NewCatalog(e.opts())
	return c
}

func TestActivationOncePerSessionAndKept(t *testing.T) {
	c := pdfCatalog(t)
	tl := c.Tools()[0]
	var spec struct {
		Properties struct {
			Name struct {
				Enum []string `json:"enum"`
			} `json:"name"`
		} `json:"properties"`
	}
	json.Unmarshal(tl.Spec().Parameters, &spec)
	if fmt.Sprint(spec.Properties.Name.Enum) != "[pdf]" {
		t.Fatalf("enum %v", spec.Properties.Name.Enum)
	}
	res, err := tl.Run(t.Context(), json.RawMessage(`{"name":"pdf"}`))
	if err != nil || res.IsError || !strings.Contains(string(res.Output), "Use scripts/fill.py.") ||
		!strings.Contains(string(res.Output), "references/forms.md") || !strings.Contains(string(res.Output), "never") && !strings.Contains(string(res.Output), "approval") {
		t.Fatalf("first activation: %s %v", res.Output, err)
	}
	res, _ = tl.Run(t.Context(), json.RawMessage(`{"name":"pdf"}`))
	if strings.Contains(string(res.Output), "Use scripts/fill.py.") || !strings.Contains(string(res.Output), "already loaded") {
		t.Fatalf("second activation: %s", res.Output)
	}
	if k := c.Kept(); !strings.Contains(k, "Use scripts/fill.py.") || strings.Count(k, "## Skill pdf") != 1 {
		t.Fatalf("kept: %q", k)
	}
	if c.Child().Kept() != "" {
		t.Errorf("a child starts with nothing loaded")
	}
}

func TestCatalogBounded(t *testing.T) {
	e := newEnv(t)
	for i := range 40 {
		n := fmt.Sprintf("s%02d", i)
		writeSkill(t, filepath.Join(e.home, ".agents", "skills"), n, skillText(n, strings.Repeat("x", 1000)))
	}
	c := NewCatalog(e.opts())
	txt := c.Text()
	if len(txt) > MaxCatalogChars+500 {
		t.Errorf("catalog %d chars, over the bound", len(txt))
	}
	if !strings.Contains(txt, "more whose descriptions did not fit: ") || !strings.Contains(txt, "s39") {
		t.Errorf("the excess is not named: %q", txt[len(txt)-200:])
	}
	if len(c.Names()) != 40 {
		t.Errorf("every offered skill stays in the enum: %d", len(c.Names()))
	}
	sent, excess := c.Sent()
	if sent != txt || len(excess) == 0 || excess[len(excess)-1] != "s39" || strings.Contains(sent, "- s39:") {
		t.Errorf("Sent names %v past the bound", excess)
	}
}

func TestSkillLinkedIntoGatehouseFolderRefused(t *testing.T) {
	e := newEnv(t)
	os.MkdirAll(filepath.Join(e.home, ".agents", "skills"), 0o755)
	secret := filepath.Join(e.config, "private")
	writeSkill(t, e.config, "private", skillText("private", "d"))
	if err := os.Symlink(secret, filepath.Join(e.home, ".agents", "skills", "private")); err != nil {
		t.Fatal(err)
	}
	set := Discover(e.opts())
	if len(set.Skills) != 1 || set.Skills[0].Problem == nil {
		t.Fatalf("a skill linked into the config folder: %+v", set.Skills)
	}
}

// The composer's /name message carries the skill's name, folder, files,
// allowed-tools and body in the fixed form the window's "skill NAME
// loaded" card reads (frontend skillCard.ts), then the user's text; a
// second choice names the skill as loaded without the body.
func TestUserPromptCarriesWhatTheCardShows(t *testing.T) {
	c := pdfCatalog(t)
	msg, _, err := c.UserPrompt("pdf", "fill the form")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"[The user loaded skill pdf for this message. Its folder is ", ", holding references/forms.md",
		". Its allowed-tools (a suggestion only: every call still passes the approval gate): Bash(python:*) Read. Its instructions:]\n\nUse scripts/fill.py.",
		"\n\n[End of skill pdf.]\n\nfill the form"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	msg, _, _ = c.UserPrompt("pdf", "again")
	if !strings.HasPrefix(msg, "[The user chose skill pdf again; it is loaded already (folder ") || !strings.HasSuffix(msg, ").]\n\nagain") {
		t.Errorf("second choice: %q", msg)
	}
}
