package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/trust"
	"gatehouse/internal/workspace"
)

type fixture struct {
	w  Where
	ws *workspace.Workspace
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	cfg, root := t.TempDir(), t.TempDir()
	ws, err := workspace.New(root, workspace.Options{ProtectedDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	return fixture{w: Where{ConfigDir: cfg, Workspace: ws.Root(), Trust: trust.NewStore(cfg)}, ws: ws}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	os.MkdirAll(filepath.Dir(path), 0o755)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (f fixture) check(line string) approval.Decided {
	return approval.CheckCommand(Load(f.w).Rules, f.ws, "", line)
}

func (f fixture) trustProject(t *testing.T) {
	t.Helper()
	c, err := trust.Read(f.ws.Root(), trust.KindPolicy)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.w.Trust.Trust(f.ws.Root(), trust.KindPolicy, c); err != nil {
		t.Fatal(err)
	}
}

// TestLayerPrecedence: deny beats ask beats allow whatever the layer; the
// workspace's own file applies only once trusted, and cannot allow.
func TestLayerPrecedence(t *testing.T) {
	f := newFixture(t)
	write(t, f.w.UserFile(), `
[[rule]]
id = "u-push"
decision = "allow"
tool = "bash"
commands = ["git push origin main", "npm test"]
`)
	if _, err := Add(f.w, ScopeWorkspace, New{Decision: approval.VerdictDeny, Patterns: true, Reason: "no pushes here",
		Rule: protocol.Rule{Tool: "bash", Commands: [][]string{{"git", "push", approval.AnyArgs}}}}); err != nil {
		t.Fatal(err)
	}
	if d := f.check("git push origin main"); d.Verdict != approval.VerdictDeny || !strings.Contains(d.Why, "no pushes here") ||
		d.Rules[0].Layer != LayerWorkspace {
		t.Fatalf("workspace deny over user allow: %+v", d)
	}
	if d := f.check("npm test"); d.Verdict != approval.VerdictAllow || d.Rules[0].ID != "u-push" {
		t.Fatalf("npm test: %+v", d)
	}

	// The workspace's own file: not read before trust; an ask in it
	// applies once trusted; an allow in it refuses the whole file.
	proj := filepath.Join(f.ws.Root(), ".gatehouse", "policy.toml")
	write(t, proj, "[[rule]]\ndecision = \"ask\"\ntool = \"bash\"\ncommands = [\"npm test\"]\n")
	if p := Load(f.w); p.Untrusted != proj || f.check("npm test").Verdict != approval.VerdictAllow {
		t.Fatalf("an untrusted file was read: %+v", p)
	}
	f.trustProject(t)
	if d := f.check("npm test"); d.Verdict != approval.VerdictAsk || d.Rules[0].Layer != LayerProject {
		t.Fatalf("trusted project ask: %+v", d)
	}
	write(t, proj, "[[rule]]\ndecision = \"ask\"\ntool = \"bash\"\ncommands = [\"npm test\"]\n\n[[rule]]\ndecision = \"allow\"\ntool = \"bash\"\ncommands = [\"curl x\"]\n")
	f.trustProject(t)
	p := Load(f.w)
	if len(p.Errors) != 1 || p.Errors[0].File != proj || p.Errors[0].Line != 6 || !strings.Contains(p.Errors[0].Msg, "can only tighten") {
		t.Fatalf("errors %+v", p.Errors)
	}
	for _, r := range p.Rules {
		if r.Layer == LayerProject {
			t.Fatalf("half of a refused file loaded: %+v", r)
		}
	}
	// Changed after trust: not read.
	write(t, proj, "[[rule]]\ndecision = \"deny\"\ntool = \"bash\"\ncommands = [\"npm test\"]\n")
	if p := Load(f.w); p.Untrusted != proj {
		t.Fatalf("changed content was read: %+v", p)
	}
}

// TestMalformedFileLoadsNothingAndSaysWhere: a syntax error, an unknown
// key, a failing example: the file loads nothing, the error names file and
// line, and Add and Remove refuse to touch it.
func TestMalformedFileLoadsNothingAndSaysWhere(t *testing.T) {
	f := newFixture(t)
	good := "[[rule]]\nid = \"a\"\ndecision = \"allow\"\ntool = \"bash\"\ncommands = [\"ls\"]\n"
	for _, c := range []struct {
		text, want string
		line       int
	}{
		{good + "\n[[rule]]\ndecision = \"deny\nx", "newlines", 8},
		{good + "\n[[rule]]\ndecision = \"deny\"\ntool = \"bash\"\ncomands = [\"rm\"]\n", "comands", 0},
		{good + "\n[[rule]]\ndecision = \"allow\"\ntool = \"bash\"\ncommands = [\"npm run test:*\"]\nmatch = [\"npm run test:unit\"]\nnot_match = [\"npm run test:unit && curl x\", \"npm run lint\"]\n", "", 0},
		{good + "\n[[rule]]\ndecision = \"allow\"\ntool = \"bash\"\ncommands = [\"npm run test:*\"]\nmatch = [\"npm run test:unit > out\"]\n", "match example", 7},
		{good + "\n[[rule]]\ndecision = \"allow\"\ntool = \"bash\"\ncommands = [\"npm run test:*\"]\nnot_match = [\"npm run test:e2e\"]\n", "not_match example", 7},
		{good + "\n[[rule]]\ndecision = \"always\"\ntool = \"bash\"\n", "allow, ask or deny", 7},
		{good + "\n[[rule]]\ndecision = \"allow\"\ntool = \"bash\"\ncommands = [\"npm **\"]\n", "**", 7},
		{good + "\n[[rule]]\ndecision = \"allow\"\ntool = \"bash\"\ncommands = [\"ls && rm x\"]\n", "one simple command", 7},
	} {
		write(t, f.w.UserFile(), c.text)
		p := Load(f.w)
		if c.want == "" && c.line == 0 {
			if len(p.Errors) != 0 || len(p.Rules) != 2 {
				t.Fatalf("a good file: %+v", p)
			}
			continue
		}
		if len(p.Rules) != 0 || len(p.Errors) != 1 {
			t.Fatalf("%q: rules %+v errors %+v", c.text, p.Rules, p.Errors)
		}
		e := p.Errors[0]
		if e.File != f.w.UserFile() || e.Line != c.line || !strings.Contains(e.Msg, c.want) {
			t.Errorf("error %v: want line %d and %q", e, c.line, c.want)
		}
		if !strings.Contains(e.Error(), f.w.UserFile()) {
			t.Errorf("error %q does not name the file", e.Error())
		}
		if _, err := Add(f.w, ScopeEverywhere, New{Decision: approval.VerdictAllow, Rule: protocol.Rule{Tool: "bash", Commands: [][]string{{"ls"}}}}); err == nil {
			t.Error("Add wrote into a broken file")
		}
		if b, _ := os.ReadFile(f.w.UserFile()); string(b) != c.text {
			t.Error("the broken file was changed")
		}
	}
}

// TestRulesSurviveARestart: the dialog's rule, saved for this workspace,
// is read by a new Source (a new process) and decides the next call; its
// words are the session rule's, exact; Remove takes it away and keeps the
// rest of the file.
func TestRulesSurviveARestart(t *testing.T) {
	f := newFixture(t)
	write(t, f.w.UserFile(), "# mine\n[[rule]]\nid = \"keep\"\ndecision = \"deny\"\ntool = \"bash\"\ncommands = [\"rm **\"]\n")
	session := protocol.Rule{Tool: "bash", Commands: [][]string{{"npm", "test"}, {"echo", "a*b"}}, Action: "exec", Cwd: f.ws.Root()}
	r, err := Add(f.w, ScopeWorkspace, New{Decision: approval.VerdictAllow, Rule: session, Examples: []string{"npm test"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Layer != LayerWorkspace || r.File != f.w.WorkspaceFile() || !strings.HasPrefix(r.ID, "p-") {
		t.Fatalf("added %+v", r)
	}
	src := NewSource(f.w)
	rules := src.Policy().Rules
	if len(rules) != 2 {
		t.Fatalf("after restart: %+v", rules)
	}
	for line, want := range map[string]approval.Verdict{
		"npm test": approval.VerdictAllow, "npm test && curl x": approval.VerdictNone, "echo a*b": approval.VerdictNone, // a glob: not plain
		"echo 'a*b'": approval.VerdictAllow, "echo axb": approval.VerdictNone, "npm test > x": approval.VerdictNone,
	} {
		if d := approval.CheckCommand(rules, f.ws, "", line); d.Verdict != want {
			t.Errorf("%q: %+v, want %s", line, d, want)
		}
	}
	// Another folder is not this workspace's.
	other := Where{ConfigDir: f.w.ConfigDir, Workspace: t.TempDir()}
	for _, r := range Load(other).Rules {
		if r.Layer == LayerWorkspace {
			t.Fatal("a workspace's rule applies to another")
		}
	}
	if _, err := Remove(f.w, r.ID); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond)
	if rules := src.Policy().Rules; len(rules) != 1 || rules[0].ID != "keep" {
		t.Fatalf("after remove: %+v", rules)
	}
	if b, _ := os.ReadFile(f.w.UserFile()); !strings.HasPrefix(string(b), "# mine\n") {
		t.Fatal("the user's file lost its comment")
	}
	if _, err := Remove(f.w, "keep"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(f.w.UserFile()); string(b) != "# mine\n" {
		t.Fatalf("left %q", b)
	}
}

func TestAuditBoundedAndFiltered(t *testing.T) {
	a := &Audit{path: filepath.Join(t.TempDir(), AuditFile), max: 2000}
	for i := range 40 {
		by := approval.ByMode
		var refs []protocol.StandingRef
		if i%2 == 0 {
			by, refs = approval.ByPolicy, []protocol.StandingRef{{ID: "p-1", Layer: LayerUser}}
		}
		if err := a.Append(approval.AuditEntry{Time: time.Now(), Session: "s1", CallID: "c", Tool: "bash", Summary: "npm test",
			By: by, Decision: approval.VerdictAllow, Standing: refs}); err != nil {
			t.Fatal(err)
		}
	}
	all, err := a.List(Filter{}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) == 0 || len(all) >= 40 {
		t.Fatalf("%d entries kept of 40 (bound 2 × 2000 bytes)", len(all))
	}
	fi1, _ := os.Stat(a.path)
	fi2, _ := os.Stat(a.path + ".1")
	if fi1.Size() > 2000 || fi2.Size() > 2000 {
		t.Fatal("a generation grew past its bound")
	}
	pol, _ := a.List(Filter{Rule: "p-1"}, 0)
	if len(pol) == 0 || len(pol) > len(all)/2+1 {
		t.Fatalf("filter by rule: %d of %d", len(pol), len(all))
	}
	u, _ := a.Uses()
	if u["p-1"].Count != len(pol) {
		t.Fatalf("uses %+v", u)
	}
	var b strings.Builder
	if err := a.Export(&b, Filter{By: approval.ByMode}); err != nil || strings.Count(b.String(), "\n") != len(all)-len(pol) {
		t.Fatalf("export: %v %q", err, b.String())
	}
}
