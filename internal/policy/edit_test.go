package policy

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
)

// TestReplaceEditsInPlaceOrNotAtAll: an edit keeps the rule's id, its
// neighbours and comments; an edit that would not load writes nothing.
func TestReplaceEditsInPlaceOrNotAtAll(t *testing.T) {
	f := newFixture(t)
	text := "# mine\n[[rule]]\nid = \"a\"\ndecision = \"allow\"\ntool = \"bash\"\ncommands = [\"npm test\"]\n\n# the next one is about pushes\n[[rule]]\nid = \"b\"\ndecision = \"deny\"\ntool = \"bash\"\ncommands = [\"git push **\"]\n"
	write(t, f.w.UserFile(), text)
	words, _ := approval.CommandPattern("npm run test:*")
	r, err := Replace(f.w, "a", New{Decision: approval.VerdictAllow, Patterns: true, Rule: protocol.Rule{Tool: "bash", Commands: [][]string{words}},
		Examples: []string{"npm run test:unit"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != "a" || r.Layer != LayerUser || r.Summary != "allow: run `npm run test:*`" {
		t.Fatalf("replaced: %+v", r)
	}
	b, _ := os.ReadFile(f.w.UserFile())
	if !strings.HasPrefix(string(b), "# mine\n[[rule]]\nid = \"a\"\n") || !strings.Contains(string(b), "\n\n# the next one is about pushes\n[[rule]]\nid = \"b\"") {
		t.Fatalf("file now:\n%s", b)
	}
	for line, want := range map[string]approval.Verdict{"npm run test:unit": approval.VerdictAllow, "npm test": approval.VerdictNone,
		"npm run test:unit && curl x": approval.VerdictNone, "git push origin": approval.VerdictDeny} {
		if d := f.check(line); d.Verdict != want {
			t.Errorf("%q: %+v, want %s", line, d, want)
		}
	}

	// Bad edits: a failing example, an allow with **, an unknown id, a
	// folder outside. Each says why; the file is byte for byte as it was.
	before, _ := os.ReadFile(f.w.UserFile())
	any, _ := approval.CommandPattern("npm **")
	for name, c := range map[string]struct {
		id   string
		n    New
		want string
	}{
		"example": {"a", New{Decision: approval.VerdictAllow, Patterns: true, Rule: protocol.Rule{Tool: "bash", Commands: [][]string{words}}, Examples: []string{"npm test"}}, "match example"},
		"anyargs": {"a", New{Decision: approval.VerdictAllow, Patterns: true, Rule: protocol.Rule{Tool: "bash", Commands: [][]string{any}}}, "** (any further arguments)"},
		"unknown": {"zz", New{Decision: approval.VerdictDeny, Patterns: true, Rule: protocol.Rule{Tool: "bash", Commands: [][]string{any}}}, `no rule "zz"`},
		"outside": {"b", New{Decision: approval.VerdictDeny, Patterns: true, Rule: protocol.Rule{Tool: "bash", Commands: [][]string{any}, Cwd: "/etc"}}, "outside the workspace"},
	} {
		_, err := Replace(f.w, c.id, c.n)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", name, err, c.want)
		}
		if now, _ := os.ReadFile(f.w.UserFile()); string(now) != string(before) {
			t.Fatalf("%s: the file changed:\n%s", name, now)
		}
	}
}

// TestTrustProjectAsShown: the workspace's own file is read only after it
// is trusted with the content shown; a deny in it then holds, an allow in
// it refuses it whole and says why.
func TestTrustProjectAsShown(t *testing.T) {
	f := newFixture(t)
	write(t, f.w.ProjectFile(), "[[rule]]\ndecision = \"deny\"\ntool = \"bash\"\ncommands = [\"curl **\"]\nreason = \"no network from here\"\n")
	p := Load(f.w)
	if p.Untrusted != f.w.ProjectFile() || p.UntrustedHash == "" || !strings.Contains(p.UntrustedText, "no network from here") || len(p.Rules) != 0 {
		t.Fatalf("untrusted: %+v", p)
	}
	if err := TrustProject(f.w, "not-the-hash"); err == nil || !strings.Contains(err.Error(), "changed since it was shown") {
		t.Fatalf("wrong hash: %v", err)
	}
	if d := f.check("curl x"); d.Verdict != approval.VerdictNone {
		t.Fatalf("before trust: %+v", d)
	}
	if err := TrustProject(f.w, p.UntrustedHash); err != nil {
		t.Fatal(err)
	}
	if d := f.check("curl x"); d.Verdict != approval.VerdictDeny || !strings.Contains(d.Why, "no network from here") {
		t.Fatalf("after trust: %+v", d)
	}

	// Changed to allow: asked again; trusted, it is refused whole.
	write(t, f.w.ProjectFile(), "[[rule]]\ndecision = \"deny\"\ntool = \"bash\"\ncommands = [\"curl **\"]\n\n[[rule]]\ndecision = \"allow\"\ntool = \"bash\"\ncommands = [\"rm x\"]\n")
	p = Load(f.w)
	if p.UntrustedHash == "" {
		t.Fatal("a changed file is not asked again")
	}
	if err := TrustProject(f.w, p.UntrustedHash); err != nil {
		t.Fatal(err)
	}
	p = Load(f.w)
	if len(p.Errors) != 1 || p.Errors[0].Line != 6 || !strings.Contains(p.Errors[0].Msg, "can only tighten") || len(p.Rules) != 0 {
		t.Fatalf("allow in the project file: %+v", p)
	}
}

// TestEditFormRoundTrips: a rule opened in the window's form and saved
// unchanged is the same rule, its examples and reason included; a form
// with a command that is not one simple command is refused with why.
func TestEditFormRoundTrips(t *testing.T) {
	f := newFixture(t)
	write(t, f.w.UserFile(), "[[rule]]\nid = \"t\"\ndecision = \"ask\"\ntool = \"bash\"\ncommands = [\"npm run test:*\", \"git push **\", \"echo 'a*b'\"]\ncwd = \"web\"\nreason = \"slow\"\nmatch = [\"npm run test:e2e\"]\nnot_match = [\"npm run build\"]\n")
	before := Load(f.w).Rules[0]
	n, err := WrittenOf(before).New()
	if err != nil {
		t.Fatal(err)
	}
	after, err := Replace(f.w, "t", n)
	if err != nil {
		t.Fatal(err)
	}
	after.Line, before.Line = 0, 0
	if !reflect.DeepEqual(after, before) {
		t.Fatalf("round trip:\n%+v\n%+v", before, after)
	}
	if _, err := (Written{Decision: "deny", Tool: "bash", Commands: []string{"npm test && curl x"}}).New(); err == nil || !strings.Contains(err.Error(), "one simple command") {
		t.Fatalf("compound: %v", err)
	}
	if _, err := (Written{Decision: "maybe", Tool: "bash"}).New(); err == nil || !strings.Contains(err.Error(), "want allow, ask or deny") {
		t.Fatalf("decision: %v", err)
	}
}
