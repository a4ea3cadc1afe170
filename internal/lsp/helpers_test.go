package lsp

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// repo is the repository's root, where make lsp-servers installs the
// pinned servers the tests run.
func repo() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// testPath is PATH with the pinned servers first: gopls below build/out,
// the npm ones in testdata/lsp.
func testPath() string {
	r := repo()
	return strings.Join([]string{filepath.Join(r, "build", "out", "lsp", "bin"),
		filepath.Join(r, "testdata", "lsp", "node_modules", ".bin"), os.Getenv("PATH")}, string(os.PathListSeparator))
}

func testEnv() []string {
	env := os.Environ()
	return append(env, "PATH="+testPath())
}

// need skips t when the server prog is not installed (make lsp-servers).
func needServer(t *testing.T, prog string) {
	t.Helper()
	if _, err := LookPath(prog, testEnv()); err != nil {
		t.Skipf("%s is not installed (make lsp-servers): %v", prog, err)
	}
}

// plant writes files under root.
func plant(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// newTestManager is a manager on root with the test servers, closed with t.
func newTestManager(t *testing.T, root string, o Options) *Manager {
	t.Helper()
	o.Root = root
	if o.Env == nil {
		o.Env = testEnv
	}
	if o.Timeout == 0 {
		o.Timeout = 60 * time.Second
	}
	m := New(o)
	t.Cleanup(m.Close)
	return m
}

const goMod = "module example.com/m\n\ngo 1.21\n"

const goClean = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n"

const goBroken = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(undefinedName)\n}\n"

func contains(ds []Diagnostic, sub string) bool {
	for _, d := range ds {
		if strings.Contains(Format(d), sub) {
			return true
		}
	}
	return false
}
