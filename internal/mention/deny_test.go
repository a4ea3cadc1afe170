package mention

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/policy"
	"gatehouse/internal/workspace"
)

// TestMentionOfADeniedFileIsRefused: @-mentions run the file tools without
// the gate; the boundary's deny predicate refuses a denied path for them
// too, with the rule and never the content: the file, a symlink to it, a
// folder holding it (which leaves it out), and the completions.
func TestMentionOfADeniedFileIsRefused(t *testing.T) {
	ws := testWS(t)
	root := ws.Root()
	os.WriteFile(filepath.Join(root, ".env"), []byte("TOKEN=hunter2\n"), 0o600)
	os.Symlink("../.env", filepath.Join(root, "src", "env"))
	r := approval.StandingRule{Decision: approval.VerdictDeny, Reason: "secrets stay out", Layer: "user"}
	r.ID, r.Tool, r.Files = "p-env", "read_file", []string{".env", "**/env"}
	ws.SetDeny(func() workspace.Deny { return policy.DenyOf([]approval.StandingRule{r}) })
	for _, m := range []string{".env", "src/env", "src/../.env"} {
		out, err := Attach(context.Background(), ws, []string{m}, nil)
		if err == nil || strings.Contains(out, "hunter2") || !strings.Contains(err.Error(), "hidden by the user's policy") || !strings.Contains(err.Error(), "secrets stay out") {
			t.Errorf("@%s: %q %v", m, out, err)
		}
	}
	out, err := Attach(context.Background(), ws, []string{"src/"}, nil)
	if err != nil || strings.Contains(out, "src/env") || !strings.Contains(out, "main.go") {
		t.Errorf("@src/: %q %v", out, err)
	}
	for _, p := range Candidates(context.Background(), ws, "env", 50) {
		if p == ".env" || p == "src/env" {
			t.Errorf("a denied path was offered: %s", p)
		}
	}
	// Typed exactly, the composer is told why instead of offered nothing.
	for _, q := range []string{".env", "src/env", "./src/../.env", ".env:1-2"} {
		if why := Refused(ws, q); !strings.Contains(why, "hidden by the user's policy") || !strings.Contains(why, "secrets stay out") {
			t.Errorf("Refused(%q) = %q", q, why)
		}
	}
	for _, q := range []string{"src/main.go", "src/", "missing.env", "*.env", ""} {
		if why := Refused(ws, q); why != "" {
			t.Errorf("Refused(%q) = %q, want nothing", q, why)
		}
	}
	ws.SetDeny(nil) // a policy edit applies to the next call
	if out, err := Attach(context.Background(), ws, []string{".env"}, nil); err != nil || !strings.Contains(out, "hunter2") {
		t.Errorf("after the rule went: %q %v", out, err)
	}
	if why := Refused(ws, ".env"); why != "" {
		t.Errorf("after the rule went, Refused = %q", why)
	}
}

// TestAnIndexWalkedBeforeADenyHidesWhatItDenies: the @ list's index is
// walked once and searched as the user types; a deny rule added after the
// walk hides the paths it covers (and what a denied folder holds) at once.
func TestAnIndexWalkedBeforeADenyHidesWhatItDenies(t *testing.T) {
	ws := testWS(t)
	root := ws.Root()
	os.WriteFile(filepath.Join(root, ".env"), []byte("TOKEN=hunter2\n"), 0o600)
	ix := Walk(context.Background(), ws)
	if got := ix.Search("env", 50); !slices.Contains(got, ".env") {
		t.Fatalf("before the rule: %v", got)
	}
	if got := ix.Search("src/ma", 5); len(got) == 0 || got[0] != "src/main.go" {
		t.Fatalf("before the rule: %v", got)
	}
	r := approval.StandingRule{Decision: approval.VerdictDeny, Reason: "secrets stay out", Layer: "user"}
	r.ID, r.Tool, r.Files = "p-env", "read_file", []string{".env", "src"}
	ws.SetDeny(func() workspace.Deny { return policy.DenyOf([]approval.StandingRule{r}) })
	for _, q := range []string{"env", "src", "main"} {
		for _, p := range ix.Search(q, 50) {
			if p == ".env" || strings.HasPrefix(p, "src/") {
				t.Errorf("@%s offered the denied %s", q, p)
			}
		}
	}
	if got := ix.Search("readme", 5); len(got) != 1 || got[0] != "README.md" {
		t.Errorf("an allowed path: %v", got)
	}
}
