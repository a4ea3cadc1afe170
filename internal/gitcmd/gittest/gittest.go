// Package gittest gives a test a git of its own.
package gittest

import (
	"os"
	"path/filepath"
	"testing"
)

// Config is the git settings Home writes: an identity that commits, main
// as a new repository's branch, no signing.
const Config = "[user]\n\tname = T\n\temail = t@example.com\n[init]\n\tdefaultBranch = main\n[commit]\n\tgpgSign = false\n"

// Home points HOME and git's global settings at a folder of the test's
// own holding Config, and turns the system's settings off: neither the
// user's nor the machine's git settings, nor git's variables of the
// environment, reach the test. It returns the folder.
func Home(t testing.TB) string {
	t.Helper()
	home := t.TempDir()
	global := filepath.Join(home, ".gitconfig")
	if err := os.WriteFile(global, []byte(Config), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", global)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	// A test run from a git hook or with an identity set gets none of it.
	for _, v := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"} {
		t.Setenv(v, "")
		os.Unsetenv(v)
	}
	return home
}
