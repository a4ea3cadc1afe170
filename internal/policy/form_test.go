package policy

import (
	"os"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/workspace"
)

// TestFormAddsAPathRuleAndRemovesIt: the Policy page's "Any tool" rule
// (paths, access, no tool) is appended to the user's file as a [[rule]]
// block, the file's own text and comments kept byte for byte; the loaded
// policy denies reading .env on the boundary at once; bad input says why
// and leaves the file as it was; Remove takes the block out again.
func TestFormAddsAPathRuleAndRemovesIt(t *testing.T) {
	f := newFixture(t)
	before := "# my rules, by hand\n[[rule]]\nid = \"push\"\ndecision = \"deny\"\ntool = \"bash\"\ncommands = [\"git push **\"] # reviewed first\n"
	write(t, f.w.UserFile(), before)
	add := func(wr Written) (approval.StandingRule, error) {
		n, err := wr.New()
		if err != nil {
			return approval.StandingRule{}, err
		}
		return Add(f.w, ScopeEverywhere, n)
	}

	for name, c := range map[string]struct {
		wr   Written
		want string
	}{
		"no tool, no paths": {Written{Decision: "deny"}, "tool is required"},
		"allow on paths":    {Written{Decision: "allow", Paths: []string{".env"}, Access: "read"}, "for deny and ask rules"},
		"unknown access":    {Written{Decision: "deny", Paths: []string{".env"}, Access: "look"}, `access "look"`},
		"bad decision":      {Written{Decision: "maybe", Paths: []string{".env"}}, "maybe"},
		"paths and tool":    {Written{Decision: "deny", Tool: "bash", Paths: []string{".env"}}, "paths are for every tool"},
	} {
		if _, err := add(c.wr); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want %q", name, err, c.want)
		}
		if now, _ := os.ReadFile(f.w.UserFile()); string(now) != before {
			t.Fatalf("%s: the file changed:\n%s", name, now)
		}
	}

	r, err := add(Written{Decision: "deny", Paths: []string{".env", " keys/** "}, Access: "read", Reason: "secrets stay out"})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(f.w.UserFile())
	if !strings.HasPrefix(string(b), before) || !strings.Contains(string(b), "paths = [\".env\", \"keys/**\"]\naccess = \"read\"\n") {
		t.Fatalf("file now:\n%s", b)
	}
	deny := DenyOf(Load(f.w).Rules)
	if deny == nil || !strings.Contains(deny(".env", workspace.Read), "secrets stay out") || !strings.Contains(deny("keys/a/deploy.pem", workspace.Read), r.ID) {
		t.Fatalf("the added rule does not deny reading: %+v", r)
	}
	if deny("app.txt", workspace.Read) != "" || deny(".env", workspace.Write) != "" {
		t.Error("the read deny reaches further than its paths and access")
	}
	if d := approval.CheckCommand(Load(f.w).Rules, f.ws, "", "git push origin"); d.Verdict != approval.VerdictDeny {
		t.Errorf("the rule written by hand no longer holds: %+v", d)
	}

	if _, err := Remove(f.w, r.ID); err != nil {
		t.Fatal(err)
	}
	if now, _ := os.ReadFile(f.w.UserFile()); string(now) != before {
		t.Fatalf("after removing, the file is not as it was:\n%q\nwant\n%q", now, before)
	}
	if DenyOf(Load(f.w).Rules) != nil {
		t.Error("the removed rule still denies")
	}
}
