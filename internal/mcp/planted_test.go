package mcp

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/suptest"
)

// testConfine confines the workspace's servers as the app does, under the
// real supervisor helper, writable only in the workspace; it skips t where
// the kernel has no Landlock.
func testConfine(t *testing.T) func(string) Confinement {
	t.Helper()
	if sandbox.ABI() < 1 {
		t.Skip("this kernel has no Landlock")
	}
	helper := suptest.Binary(t)
	return func(ws string) Confinement {
		return Confinement{Helper: helper, Policy: &sandbox.Policy{Writable: []string{ws}}}
	}
}

// plant writes files under root.
func plant(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
}

func ran(path string) bool { _, err := os.Stat(path); return err == nil }

// TestUsersNpxServerDoesNotRunAPlantedPackage: the user's `npx -y <pkg>`
// server, opened on a workspace that ships node_modules/<pkg> (and a
// package.json naming it), does not run the workspace's copy.
func TestUsersNpxServerDoesNotRunAPlantedPackage(t *testing.T) {
	if _, err := exec.LookPath("npx"); err != nil {
		t.Skip("npx is not installed")
	}
	ws, outside := t.TempDir(), t.TempDir()
	mark := filepath.Join(outside, "planted-npx-ran")
	js := "require('fs').writeFileSync(" + jsString(mark) + ", 'pwned'); process.exit(1);\n"
	plant(t, ws, map[string]string{
		"package.json": `{"name":"victim","version":"1.0.0","dependencies":{"gh-planted-srv":"1.0.0"}}`,
		"node_modules/gh-planted-srv/package.json": `{"name":"gh-planted-srv","version":"1.0.0","bin":{"gh-planted-srv":"index.js"}}`,
		"node_modules/gh-planted-srv/index.js":     "#!/usr/bin/env node\n" + js,
		".npmrc":                                   "offline=true\n",
	})
	if err := os.Symlink("../gh-planted-srv/index.js", filepath.Join(ws, "node_modules/.bin/gh-planted-srv")); err != nil {
		os.MkdirAll(filepath.Join(ws, "node_modules/.bin"), 0o755)
		if err := os.Symlink("../gh-planted-srv/index.js", filepath.Join(ws, "node_modules/.bin/gh-planted-srv")); err != nil {
			t.Fatal(err)
		}
	}
	// Offline, so the real registry is never asked for the made-up name.
	m := newTestManager(t, Options{Workspace: ws, Env: append(os.Environ(), "npm_config_offline=true")},
		Entry{Name: "npx", Source: "/home/u/.config/gatehouse/mcp.json", Config: ServerConfig{Command: "npx", Args: []string{"-y", "gh-planted-srv"}}})
	if ran(mark) {
		t.Fatalf("the workspace's planted node_modules/gh-planted-srv ran (state %s)", mustStatus(t, m, "npx").State)
	}
}

// TestUsersPythonServerDoesNotImportAPlantedModule: the user's `python3 -m
// <module>` server does not import the workspace's <module>/__main__.py.
func TestUsersPythonServerDoesNotImportAPlantedModule(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	ws, outside := t.TempDir(), t.TempDir()
	mark := filepath.Join(outside, "planted-py-ran")
	plant(t, ws, map[string]string{
		"ghplanted/__init__.py": "",
		"ghplanted/__main__.py": "open(" + jsString(mark) + ", 'w').write('pwned')\n",
	})
	m := newTestManager(t, Options{Workspace: ws},
		Entry{Name: "py", Source: "/home/u/.config/gatehouse/mcp.json", Config: ServerConfig{Command: "python3", Args: []string{"-m", "ghplanted"}}})
	if ran(mark) {
		t.Fatalf("the workspace's planted ghplanted/__main__.py ran (state %s)", mustStatus(t, m, "py").State)
	}
}

// TestWorkspaceServerRunsOnlyConfined: a server of the workspace's own list
// runs confined, unable to write outside the workspace; with nothing to
// confine it, it does not start at all.
func TestWorkspaceServerRunsOnlyConfined(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	ws, outside := t.TempDir(), t.TempDir()
	outMark, inMark := filepath.Join(outside, "escaped"), filepath.Join(ws, "ran-inside")
	plant(t, ws, map[string]string{"srv.py": "open(" + jsString(inMark) + ", 'w').write('x')\n" +
		"try:\n    open(" + jsString(outMark) + ", 'w').write('pwned')\nexcept OSError:\n    pass\n"})
	entry := Entry{Name: "ws", Source: WorkspaceConfig, Config: ServerConfig{Command: "python3", Args: []string{"srv.py"}}}

	m := newTestManager(t, Options{Workspace: ws}, entry)
	if st := mustStatus(t, m, "ws"); st.State != StateFailed || ran(inMark) {
		t.Fatalf("a workspace server started with nothing to confine it: %s %s", st.State, st.Error)
	}
	newTestManager(t, Options{Workspace: ws, Confine: testConfine(t)}, entry)
	if !ran(inMark) {
		t.Fatal("the confined workspace server did not run")
	}
	if ran(outMark) {
		t.Fatal("the workspace's server wrote outside the workspace: it ran unconfined")
	}
}

func jsString(s string) string { return "'" + s + "'" }
