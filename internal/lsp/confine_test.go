//go:build linux

package lsp

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/suptest"
)

// fakeApp is a child "app" (LSP_FAKE=app): a manager whose fake server,
// which starts a grandchild, runs under the helper; it checks a file,
// says "ready" and waits to be killed.
func fakeApp() {
	root := os.Getenv("LSP_FAKE_ROOT")
	exe, _ := os.Executable()
	h := &Helper{Path: os.Getenv("LSP_FAKE_HELPER")}
	m := New(Options{Root: root, Launch: h.Launch, Servers: []ServerConfig{{Name: "fake", Command: exe, Patterns: []string{"*.txt"},
		Env: map[string]string{"LSP_FAKE": "spawn", "LSP_FAKE_PIDS": os.Getenv("LSP_FAKE_PIDS")}}}})
	r := m.Check(context.Background(), Disk(filepath.Join(m.Root(), "a.txt")), false)
	if len(r.Problems) > 0 {
		os.Stdout.WriteString("failed: " + strings.Join(r.Problems, "; ") + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("ready\n")
	time.Sleep(time.Hour)
}

// TestNoServerOutlivesAKilledApp: when the app dies by SIGKILL, the
// helper's lifeline ends its language servers and what they started.
func TestNoServerOutlivesAKilledApp(t *testing.T) {
	helper := suptest.Binary(t)
	root, pids := t.TempDir(), filepath.Join(t.TempDir(), "pids")
	plant(t, root, map[string]string{"a.txt": "BAD\n"})
	exe, _ := os.Executable()
	app := exec.Command(exe)
	app.Env = append(os.Environ(), "LSP_FAKE=app", "LSP_FAKE_ROOT="+root, "LSP_FAKE_HELPER="+helper, "LSP_FAKE_PIDS="+pids)
	out, _ := app.StdoutPipe()
	if err := app.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 256)
	n, _ := out.Read(buf)
	if !strings.HasPrefix(string(buf[:n]), "ready") {
		app.Process.Kill()
		t.Fatalf("the app said %q", buf[:n])
	}
	deadline := time.Now().Add(30 * time.Second)
	for len(readPids(t, pids)) < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	ps := readPids(t, pids)
	if len(ps) != 2 || !alive(ps[0]) || !alive(ps[1]) {
		t.Fatalf("pids %v", ps)
	}
	app.Process.Signal(syscall.SIGKILL)
	app.Wait()
	deadline = time.Now().Add(30 * time.Second)
	for (alive(ps[0]) || alive(ps[1])) && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	for _, p := range ps {
		if alive(p) {
			syscall.Kill(p, syscall.SIGKILL)
			t.Errorf("process %d outlived the killed app", p)
		}
	}
}

// TestAServerInAnUntrustedFolderIsConfined: a server launched as the app
// launches one (the helper, the sandbox policy of the workspace) runs the
// workspace's code — here, what a tsserver plugin named by tsconfig.json
// would do — but cannot write outside the workspace.
func TestAServerInAnUntrustedFolderIsConfined(t *testing.T) {
	if sandbox.ABI() < 1 {
		t.Skip("this kernel has no Landlock")
	}
	helper := suptest.Binary(t)
	root, outside := t.TempDir(), t.TempDir()
	os.Chmod(outside, 0o777)
	plant(t, root, map[string]string{"a.txt": "BAD\n"})
	os.Chmod(root, 0o777)
	// The sandbox's temp folder is its own, so the outside folder (below
	// the system's temp folder too) is outside every writable place.
	env := append(os.Environ(), "TMPDIR="+t.TempDir())
	p := sandbox.Build(sandbox.Spec{Workspace: root, Home: sandbox.HomeDir(env), Env: env, Layers: sandbox.Detect()})
	h := &Helper{Path: helper, Policy: &p}
	t.Cleanup(h.Close)
	exe, _ := os.Executable()
	mark := filepath.Join(outside, "escaped")
	m := newTestManager(t, root, Options{Launch: h.Launch, Servers: []ServerConfig{{Name: "fake", Command: exe, Patterns: []string{"*.txt"},
		Env: map[string]string{"LSP_FAKE": "escape", "LSP_FAKE_OUT": mark}}}})
	r := m.Check(context.Background(), Disk(filepath.Join(m.Root(), "a.txt")), false)
	if len(r.Problems) > 0 {
		t.Fatalf("%+v", r)
	}
	if _, err := os.Stat(filepath.Join(root, "inside")); err != nil {
		t.Fatalf("the server did not run its code: %v", err)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatal("the server wrote outside the workspace")
	}
	if st := m.Statuses(); len(st) != 1 || !st[0].Confined {
		t.Fatalf("%+v", st)
	}
}
