package files

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// fixture builds base/ws (the workspace), base/outside, base/ro (read-only
// root) and base/conf (a protected Gatehouse folder), with the symlinks the
// boundary must see through.
func fixture(t *testing.T) (string, *workspace.Workspace) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"ws/src/a.txt":             "alpha\nbeta\ngamma\n",
		"ws/src/b.go":              "package b\n// needle here\n",
		"ws/.gitignore":            "build/\n*.log\n",
		"ws/build/out.txt":         "needle in build\n",
		"ws/debug.log":             "needle in log\n",
		"ws/.git/config":           "[core] needle\n",
		"ws/.git/hooks/pre-commit": "#!/bin/sh\n",
		"ws/.ssh/id":               "needle key\n",
		"ws/bin.dat":               "\x00\x01needle\x02",
		"outside/s":                "needle secret\n",
		"ro/doc.md":                "read-only needle\n",
		"conf/settings.json":       "{}\n",
	}
	for p, c := range files {
		full := filepath.Join(base, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"ws/deep/x/y/out": filepath.Join(base, "outside"),
		"ws/link.txt":     "src/a.txt",
		"ws/secret.txt":   filepath.Join(base, "outside/s"),
		"ws/dangling":     "src/missing.txt",
		"ws/dangling-out": filepath.Join(base, "outside/missing"),
		"ws/loop1":        "loop2",
		"ws/loop2":        "loop1",
		"ws/conflink":     filepath.Join(base, "conf"),
	}
	for p, target := range links {
		full := filepath.Join(base, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.Symlink(target, full); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.New(filepath.Join(base, "ws"), workspace.Options{
		ReadOnlyRoots: []string{filepath.Join(base, "ro")},
		ProtectedDirs: []string{filepath.Join(base, "conf")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return base, ws
}

func run(t *testing.T, tool tools.Tool, args any) (map[string]any, bool) {
	t.Helper()
	raw, _ := json.Marshal(args)
	res, err := tool.Run(context.Background(), raw)
	if err != nil {
		t.Fatalf("%s(%s): %v", tool.Spec().Name, raw, err)
	}
	var out map[string]any
	if err := json.Unmarshal(res.Output, &out); err != nil {
		t.Fatalf("%s: output %q is not JSON", tool.Spec().Name, res.Output)
	}
	return out, res.IsError
}

func errCode(out map[string]any) string {
	e, _ := out["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

// TestBoundaryEachTool sends every tool the paths the boundary must refuse.
func TestBoundaryEachTool(t *testing.T) {
	base, ws := fixture(t)
	patchAdd := func(p string) any {
		return map[string]string{"patch": "*** Begin Patch\n*** Add File: " + p + "\n+x\n*** End Patch"}
	}
	patchUpdate := func(p string) any {
		return map[string]string{"patch": "*** Begin Patch\n*** Update File: " + p + "\n@@\n-needle secret\n+gone\n*** End Patch"}
	}
	patchMove := func(p string) any {
		return map[string]string{"patch": "*** Begin Patch\n*** Update File: src/a.txt\n*** Move to: " + p + "\n@@\n-alpha\n+A\n*** End Patch"}
	}
	type mk func(path string) any
	toolsUnderTest := []struct {
		tool  tools.Tool
		write bool
		args  []mk
	}{
		{NewReadFile(ws), false, []mk{func(p string) any { return map[string]string{"path": p} }}},
		{NewListDir(ws), false, []mk{func(p string) any { return map[string]string{"path": p} }}},
		{NewGlob(ws), false, []mk{func(p string) any { return map[string]string{"path": p, "pattern": "*"} }}},
		{NewGrep(ws), false, []mk{func(p string) any { return map[string]string{"path": p, "pattern": "needle"} }}},
		{NewWriteFile(ws), true, []mk{func(p string) any { return map[string]string{"path": p, "content": "x"} }}},
		{NewApplyPatch(ws), true, []mk{patchAdd, patchUpdate, patchMove}},
	}
	outside := filepath.Join(base, "outside", "s")
	cases := []struct {
		path             string
		readCode, wrCode string // "" = not refused by the boundary
		skipRead, skipWr bool
	}{
		{path: "../outside/s", readCode: "outside_workspace", wrCode: "outside_workspace"},
		{path: "src/../../outside/s", readCode: "outside_workspace", wrCode: "outside_workspace"},
		{path: outside, readCode: "outside_workspace", wrCode: "outside_workspace"},
		{path: "deep/x/y/out/s", readCode: "outside_workspace", wrCode: "outside_workspace"},
		{path: "deep/x/y/out", readCode: "outside_workspace", wrCode: "outside_workspace"},
		{path: "deep/x/y/out/new/dir/f.txt", readCode: "outside_workspace", wrCode: "outside_workspace"},
		{path: "secret.txt", readCode: "outside_workspace", wrCode: "outside_workspace"},
		{path: "dangling-out", readCode: "outside_workspace", wrCode: "outside_workspace"},
		{path: "loop1", readCode: "symlink_loop", wrCode: "symlink_loop"},
		{path: "loop1/sub/f", readCode: "symlink_loop", wrCode: "symlink_loop"},
		{path: ".ssh/id", readCode: "protected_path", wrCode: "protected_path"},
		{path: ".ssh", readCode: "protected_path", wrCode: "protected_path"},
		{path: "conflink/settings.json", readCode: "protected_path", wrCode: "protected_path"},
		{path: ".git/hooks/pre-commit", wrCode: "protected_path"},
		{path: ".git/config", wrCode: "protected_path"},
		// Issue 12, item 5: all of .git, and a .git file (gitfile) anywhere.
		{path: ".git/commondir", wrCode: "protected_path"},
		{path: ".git/HEAD", wrCode: "protected_path"},
		{path: ".git/info/new/exclude", wrCode: "protected_path"},
		{path: ".git", wrCode: "protected_path"},
		{path: "src/.git", wrCode: "protected_path"},
		{path: "src/.GIT/config", wrCode: "protected_path"},
		{path: filepath.Join(base, "ro", "doc.md"), wrCode: "read_only_root"},
		{path: filepath.Join(base, "ro"), wrCode: "read_only_root"},
	}
	for _, tu := range toolsUnderTest {
		for _, c := range cases {
			want := c.readCode
			if tu.write {
				want = c.wrCode
			}
			for _, mkArgs := range tu.args {
				out, isErr := run(t, tu.tool, mkArgs(c.path))
				got := errCode(out)
				if want != "" {
					if !isErr || got != want {
						t.Errorf("%s %q: code %q, want %q (%v)", tu.tool.Spec().Name, c.path, got, want, out)
					}
					if e, _ := out["error"].(map[string]any); e != nil && e["path"] != c.path {
						t.Errorf("%s %q: error path %v, want the path given", tu.tool.Spec().Name, c.path, e["path"])
					}
					continue
				}
				switch got {
				case "outside_workspace", "protected_path", "read_only_root", "symlink_loop":
					t.Errorf("%s %q: refused by the boundary (%s), want allowed", tu.tool.Spec().Name, c.path, got)
				}
			}
		}
	}
	// Nothing outside changed, nothing was created outside.
	if b, _ := os.ReadFile(outside); string(b) != "needle secret\n" {
		t.Errorf("outside file changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(base, "outside", "new")); err == nil {
		t.Error("a folder was created outside the workspace")
	}
	if b, _ := os.ReadFile(filepath.Join(base, "ro", "doc.md")); string(b) != "read-only needle\n" {
		t.Errorf("read-only root changed: %q", b)
	}
}

// TestWalkersStayInside checks that tools which walk folders neither
// descend into symlinked folders pointing outside nor read through
// symlinked files pointing outside, and skip .git, .gitignore'd and
// protected paths.
func TestWalkersStayInside(t *testing.T) {
	_, ws := fixture(t)
	out, isErr := run(t, NewGrep(ws), map[string]any{"pattern": "needle"})
	if isErr {
		t.Fatal(out)
	}
	var paths []string
	for _, m := range out["matches"].([]any) {
		paths = append(paths, m.(map[string]any)["path"].(string))
	}
	if strings.Join(paths, ",") != "src/b.go" {
		t.Errorf("grep matched %v, want only src/b.go", paths)
	}
	out, _ = run(t, NewGlob(ws), map[string]any{"pattern": "**/*"})
	got := ""
	for _, m := range out["matches"].([]any) {
		got += m.(string) + ","
	}
	if got != ".gitignore,link.txt,src/a.txt,src/b.go,bin.dat," && got != ".gitignore,bin.dat,link.txt,src/a.txt,src/b.go," {
		t.Errorf("glob = %s", got)
	}
	out, _ = run(t, NewListDir(ws), map[string]any{"depth": 5})
	got = ","
	for _, m := range out["entries"].([]any) {
		e := m.(map[string]any)
		got += e["path"].(string) + ":" + e["type"].(string) + ","
	}
	for _, bad := range []string{",deep/x/y/out/s:", ",build:", ",.git:", ",.ssh:", ",debug.log:", ",conflink/settings.json:"} {
		if strings.Contains(got, bad) {
			t.Errorf("list_dir shows %s: %s", bad, got)
		}
	}
	if !strings.Contains(got, ",deep/x/y/out:symlink,") || !strings.Contains(got, ",src/a.txt:file,") {
		t.Errorf("list_dir = %s", got)
	}
	// A read-only root can be searched.
	out, _ = run(t, NewGrep(ws), map[string]any{"pattern": "needle", "path": filepath.Join(filepath.Dir(ws.Root()), "ro")})
	if n := len(out["matches"].([]any)); n != 1 {
		t.Errorf("grep in read-only root: %v", out)
	}
}
