package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A read-only root that lies inside the workspace (a user skill folder
// linked to the repository's own tools/skill, or a workspace opened inside
// the user's skills folder) is still the user's workspace: the policy's
// read deny holds there, by the workspace's path and by the root's.
func TestADenyHoldsInsideAReadOnlyRootOfTheWorkspace(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws := filepath.Join(base, "ws")
	skill := filepath.Join(ws, "tools", "skill")
	os.MkdirAll(skill, 0o755)
	os.WriteFile(filepath.Join(skill, ".env"), []byte("TOKEN=ro-secret\n"), 0o600)
	os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: skill\n---\n"), 0o644)
	link := filepath.Join(base, "skills", "skill")
	os.MkdirAll(filepath.Dir(link), 0o755)
	os.Symlink(skill, link)
	deny := func() Deny {
		return func(rel string, access Access) string {
			if access == Read && (rel == ".env" || strings.HasSuffix(rel, "/.env")) {
				return "secrets stay out"
			}
			return ""
		}
	}
	for _, c := range []struct{ root, ro string }{{ws, link}, {skill, filepath.Dir(link)}} {
		w, err := New(c.root, Options{ReadOnlyRoots: []string{c.ro}, ProtectedDirs: []string{}})
		if err != nil {
			t.Fatal(err)
		}
		w.SetDeny(deny)
		for _, p := range []string{filepath.Join(skill, ".env"), filepath.Join(link, ".env")} {
			if _, err := w.Resolve(p, Read); err == nil || !strings.Contains(err.Error(), "secrets stay out") {
				t.Errorf("workspace %s, read-only root %s: Resolve(%s) = %v, want the deny", c.root, c.ro, p, err)
			}
		}
		if _, err := w.Resolve(filepath.Join(skill, "SKILL.md"), Read); err != nil {
			t.Errorf("SKILL.md: %v", err)
		}
	}
}
