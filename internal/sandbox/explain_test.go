package sandbox_test

import (
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/sandbox"
)

// With Landlock alone, a put-back hook is named as a workspace path a
// reader can place (.git/hooks/pre-commit), not relative to .git.
func TestExplainNamesRestoredPathsInTheWorkspace(t *testing.T) {
	ws, tmp := t.TempDir(), t.TempDir()
	restored := []string{filepath.Join(ws, ".git", "hooks", "pre-commit"), filepath.Join(ws, "sub", ".envrc")}
	for _, p := range []*sandbox.Policy{{Writable: []string{tmp, ws}}, nil} {
		why := sandbox.Explain(p, restored[:1], "")
		if !strings.Contains(why, "The command changed .git/hooks/pre-commit,") {
			t.Errorf("policy %v: %q", p, why)
		}
	}
	if why := sandbox.Explain(&sandbox.Policy{Writable: []string{ws}}, restored, ""); !strings.Contains(why, "sub/.envrc") {
		t.Errorf("%q", why)
	}
}
