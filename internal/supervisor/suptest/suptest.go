// Package suptest gives tests the path of the gatehouse-supervisor helper:
// $GATEHOUSE_TEST_SUPERVISOR when set (the Makefile builds it), else a build
// of its own, made once per test process with CGO_ENABLED=0 as the Makefile
// does. Tests pass the path through proc.Options; none re-execs a test binary.
package suptest

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"gatehouse/internal/sandbox"
)

var (
	once sync.Once
	dir  string
	path string
	err  error
)

// Binary returns the helper's path, building it on first use.
func Binary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("GATEHOUSE_TEST_SUPERVISOR"); p != "" {
		return p
	}
	once.Do(func() {
		dir, err = os.MkdirTemp("", "gatehouse-suptest-")
		if err != nil {
			return
		}
		path = filepath.Join(dir, "gatehouse-supervisor")
		err = Build(path)
	})
	if err != nil {
		t.Fatalf("building the supervisor helper: %v", err)
	}
	return path
}

// Confining makes the app's hosts (the window, exec) find a helper through
// $GATEHOUSE_SUPERVISOR for the rest of t, so their commands run confined;
// it skips t where the kernel has no Landlock. The helper is built into
// t's temp folder when $GATEHOUSE_TEST_SUPERVISOR is not set.
func Confining(t *testing.T) {
	t.Helper()
	if sandbox.ABI() < 1 {
		t.Skip("this kernel has no Landlock")
	}
	helper := os.Getenv("GATEHOUSE_TEST_SUPERVISOR")
	if helper == "" {
		helper = filepath.Join(t.TempDir(), "gatehouse-supervisor")
		if err := Build(helper); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GATEHOUSE_SUPERVISOR", helper)
}

// Build compiles a main package of this module (default: the helper) into
// out, statically.
func Build(out string, pkg ...string) error {
	p := "gatehouse/internal/supervisor/cmd/gatehouse-supervisor"
	if len(pkg) > 0 {
		p = pkg[0]
	}
	cmd := exec.Command("go", "build", "-o", out, p)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return &buildError{p, string(b), err}
	}
	return nil
}

type buildError struct {
	pkg, out string
	err      error
}

func (e *buildError) Error() string { return "go build " + e.pkg + ": " + e.err.Error() + "\n" + e.out }

// Cleanup removes what Binary built; call it at the end of TestMain.
func Cleanup() {
	if dir != "" {
		os.RemoveAll(dir)
	}
}
