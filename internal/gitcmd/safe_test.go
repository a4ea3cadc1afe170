package gitcmd

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A filter driver named only in an included file, one whose name holds
// "=" (no -c option can name it), and a textconv all run nothing in safe
// mode; the app's secrets never reach git or what it starts. The same
// repository, trusted, runs the filter (the plant is real).
func TestSafeModeEmptiesDriversNamedAnywhereAndHidesSecrets(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, "gitconfig"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("OPENAI_API_KEY", "sk-secret")
	t.Setenv("GATEHOUSE_X", "secret")
	dir, marks := t.TempDir(), t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	git("init", "-q")
	mark := func(name string) string {
		return "env > " + filepath.Join(marks, name) + "; cat"
	}
	inc := filepath.Join(dir, "inc.cfg")
	os.WriteFile(inc, []byte("[filter \"inc\"]\n\tclean = \""+mark("included")+"\"\n[filter \"a=b\"]\n\tclean = \""+mark("equals")+"\"\n"), 0o644)
	git("config", "include.path", inc)
	os.WriteFile(filepath.Join(dir, ".gitattributes"), []byte("*.i filter=inc\n*.e filter=a=b\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "x.i"), []byte("x\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "y.e"), []byte("y\n"), 0o644)
	ctx := context.Background()
	if out, err := (Git{}).Run(ctx, dir, nil, "add", "-A"); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	if es, _ := os.ReadDir(marks); len(es) != 0 {
		t.Fatalf("safe mode ran a filter: %v", es)
	}
	os.WriteFile(filepath.Join(dir, "x.i"), []byte("x2\n"), 0o644)
	if out, err := (Git{Trusted: func() bool { return true }}).Run(ctx, dir, nil, "add", "-A"); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	env, err := os.ReadFile(filepath.Join(marks, "included"))
	if err != nil {
		t.Fatal("trusted: the included filter did not run; the plant proves nothing")
	}
	if strings.Contains(string(env), "sk-secret") || strings.Contains(string(env), "GATEHOUSE_X") {
		t.Fatalf("the app's secrets reached what git started:\n%s", env)
	}
}
