package policy

import (
	"strings"
	"testing"

	"gatehouse/internal/approval"
)

// TestPathRules: a rule with paths is for every tool, deny and ask only,
// access read, write or any (the default); files on read_file are a read
// rule too; ReadDenies lists the globs a read deny names, with the rule.
func TestPathRules(t *testing.T) {
	_, rules, err := parse("p.toml", LayerUser, `
[[rule]]
id = "env"
decision = "deny"
paths = [".env", "keys/**"]
match = ["keys/a/b.pem"]
not_match = ["src/.envrc"]

[[rule]]
id = "read"
decision = "deny"
tool = "read_file"
files = ["secrets/*"]

[[rule]]
id = "gen"
decision = "deny"
paths = ["gen/**"]
access = "write"

[[rule]]
id = "notes"
decision = "ask"
paths = ["notes/**"]
access = "read"
`)
	if err != nil {
		t.Fatal(err)
	}
	if r := rules[0]; r.Tool != "*" || r.Access != approval.AccessAny || !strings.Contains(r.Summary, "read or change .env, keys/**") {
		t.Errorf("paths rule %+v", r)
	}
	if w := WrittenOf(rules[0]); w.Tool != "" || len(w.Paths) != 2 || len(w.Files) != 0 {
		t.Errorf("written back %+v", w)
	}
	var globs []string
	for _, d := range ReadDenies(rules) {
		globs = append(globs, d.Glob+"="+d.Rule.ID)
	}
	if got := strings.Join(globs, " "); got != ".env=env keys/**=env secrets/*=read" {
		t.Errorf("ReadDenies: %s", got)
	}
	deny := DenyOf(rules)
	for p, want := range map[string]bool{".env": true, "keys/x/y": true, "secrets/a": true, "gen/a.go": false, "notes/a": false, "src/a": false} {
		if got := deny(p, 0) != ""; got != want {
			t.Errorf("deny(%s) = %v", p, got)
		}
	}
	for _, bad := range []string{
		"decision = \"allow\"\npaths = [\"a\"]",
		"decision = \"deny\"\ntool = \"bash\"\npaths = [\"a\"]",
		"decision = \"deny\"\npaths = [\"a\"]\naccess = \"exec\"",
		"decision = \"deny\"\npaths = [\"a\"]\ncommands = [\"ls\"]",
		"decision = \"deny\"\ntool = \"bash\"\naccess = \"read\"",
	} {
		if _, _, err := parse("bad.toml", LayerUser, "[[rule]]\n"+bad+"\n"); err == nil {
			t.Errorf("loaded: %s", bad)
		}
	}
}
