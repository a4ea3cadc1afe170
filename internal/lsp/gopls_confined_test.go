//go:build linux

package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/suptest"
)

// TestGoplsConfinedReportsAnError: gopls launched as a session launches
// it (the helper, the workspace's sandbox policy, Gatehouse's own tool
// caches, the user's module cache read-only, a fresh HOME whose login
// PATH has no go) loads the module and reports main.go's undefined name,
// not "No active builds contain main.go".
func TestGoplsConfinedReportsAnError(t *testing.T) {
	needServer(t, "gopls")
	if sandbox.ABI() < 1 {
		t.Skip("this kernel has no Landlock")
	}
	helper := suptest.Binary(t)
	// As an end-to-end run has it: the workspace and a fresh HOME side
	// by side in the temp folder, Gatehouse's data folder in that HOME.
	tmp := t.TempDir()
	os.Chmod(tmp, 0o777)
	root, home := filepath.Join(tmp, "workspace"), filepath.Join(tmp, "home")
	data := filepath.Join(home, ".local", "share", "gatehouse")
	plant(t, root, map[string]string{"go.mod": goMod, "main.go": goBroken})
	scratch := filepath.Join(data, "scratch", "mcp")
	if err := os.MkdirAll(filepath.Join(scratch, "tmp"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := sandbox.MakeCaches(data); err != nil {
		t.Fatal(err)
	}
	// The login environment of a fresh HOME can lack Go's folder on PATH
	// (a login shell resets it): the app's own PATH has it.
	env := append(testEnv(), "PATH="+withoutGo(testPath()), "HOME="+home, "GOMODCACHE=", "GOPATH=", "GOCACHE=", "TMPDIR=")
	p := sandbox.Build(sandbox.Spec{Workspace: root, Home: home, DataDir: data, Scratch: scratch, Env: env, Layers: sandbox.Detect()})
	p.SetEnv = append(p.SetEnv, "GOMODCACHE="+sandbox.UserGoModCache(env), "GOPROXY=off")
	h := &Helper{Path: helper, Policy: &p}
	t.Cleanup(h.Close)
	m := newTestManager(t, root, Options{Launch: h.Launch, Env: func() []string { return env }})
	r := m.Check(context.Background(), Disk(filepath.Join(m.Root(), "main.go")), false)
	t.Logf("%+v", r)
	if !contains(r.Files["main.go"], "undefined: undefinedName") {
		t.Fatalf("no undefined: diagnostic: %+v", r)
	}
}

// withoutGo is path without the folders that hold the go command.
func withoutGo(path string) string {
	var keep []string
	for _, d := range filepath.SplitList(path) {
		if _, err := LookPath(filepath.Join(d, goExe()), nil); err != nil && d != "" {
			keep = append(keep, d)
		}
	}
	return strings.Join(keep, string(os.PathListSeparator))
}
