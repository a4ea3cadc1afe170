package workspace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture builds:
//
//	base/ws/            the workspace root
//	base/ws/src/a.txt
//	base/ws/deep/x/y/out -> base/outside   (symlinked folder deep in the path)
//	base/ws/link.txt -> src/a.txt          (final-component symlink, inside)
//	base/ws/secret.txt -> base/outside/s   (final-component symlink, outside)
//	base/ws/dangling -> src/missing.txt    (dangling, inside)
//	base/ws/dangling-out -> base/outside/missing
//	base/ws/loop1 -> loop2, loop2 -> loop1
//	base/ws/.git/hooks, base/ws/.git/config, base/ws/.ssh/id
//	base/ws/gitlink -> .git
//	base/ro/doc.md                         (read-only root)
//	base/conf/                             (a protected Gatehouse folder)
//	base/outside/s
func fixture(t testing.TB) (base string, w *Workspace) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(p, content string) {
		full := filepath.Join(base, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ln := func(target, p string) {
		full := filepath.Join(base, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, full); err != nil {
			t.Fatal(err)
		}
	}
	mk("ws/src/a.txt", "a\n")
	mk("outside/s", "secret\n")
	mk("ws/.git/config", "[core]\n")
	mk("ws/.git/hooks/pre-commit", "#!/bin/sh\n")
	mk("ws/.git/HEAD", "ref: refs/heads/main\n")
	mk("ws/.ssh/id", "key\n")
	mk("ro/doc.md", "doc\n")
	mk("conf/settings.json", "{}\n")
	ln(filepath.Join(base, "outside"), "ws/deep/x/y/out")
	ln("src/a.txt", "ws/link.txt")
	ln(filepath.Join(base, "outside", "s"), "ws/secret.txt")
	ln("src/missing.txt", "ws/dangling")
	ln(filepath.Join(base, "outside", "missing"), "ws/dangling-out")
	ln("loop2", "ws/loop1")
	ln("loop1", "ws/loop2")
	ln(filepath.Join(base, "conf"), "ws/conflink")
	ln("../..", "ws/src/up")
	ln(".git", "ws/gitlink")
	w, err = New(filepath.Join(base, "ws"), Options{
		ReadOnlyRoots: []string{filepath.Join(base, "ro")},
		ProtectedDirs: []string{filepath.Join(base, "conf")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return base, w
}

func TestResolve(t *testing.T) {
	base, w := fixture(t)
	ws := filepath.Join(base, "ws")
	cases := []resolveCase{
		{"src/a.txt", Read, "ws/src/a.txt", ""},
		{"src/a.txt", Write, "ws/src/a.txt", ""},
		{"./src/../src/a.txt", Write, "ws/src/a.txt", ""},
		{"new/dir/file.txt", Write, "ws/new/dir/file.txt", ""},
		{filepath.Join(ws, "src/a.txt"), Write, "ws/src/a.txt", ""},
		{".", Read, "ws", ""},
		{"", Read, "", CodeInvalid},
		{"../outside/s", Read, "", CodeOutside},
		{"src/../../outside/s", Write, "", CodeOutside},
		{filepath.Join(base, "outside/s"), Read, "", CodeOutside},
		{"/etc/passwd", Read, "", CodeOutside},
		// A symlinked folder deep in the path, existing and missing tails.
		{"deep/x/y/out/s", Read, "", CodeOutside},
		{"deep/x/y/out/s", Write, "", CodeOutside},
		{"deep/x/y/out/new/file.txt", Write, "", CodeOutside},
		// out/.. is the parent of out's target, which holds ws again.
		{"deep/x/y/out/../ws/src/a.txt", Write, "ws/src/a.txt", ""},
		{"deep/x/y/out", Read, "", CodeOutside},
		// '..' after a symlink is the parent of its target, not of the link.
		{"src/up/outside/s", Read, "", CodeOutside},
		{"src/up/ws/src/a.txt", Read, "ws/src/a.txt", ""},
		// Final-component symlinks.
		{"link.txt", Write, "ws/src/a.txt", ""},
		{"secret.txt", Read, "", CodeOutside},
		// Dangling symlinks resolve to where a write would land.
		{"dangling", Write, "ws/src/missing.txt", ""},
		{"dangling-out", Write, "", CodeOutside},
		// Loops.
		{"loop1", Read, "", CodeLoop},
		{"loop1/x/y", Write, "", CodeLoop},
		// Protected places.
		{".git/hooks/pre-commit", Write, "", CodeProtected},
		{".git/hooks/new-hook", Write, "", CodeProtected},
		{".git/config", Write, "", CodeProtected},
		{".GIT/Config", Write, "", CodeProtected},
		{".git/hooks/pre-commit", Read, "ws/.git/hooks/pre-commit", ""},
		{".git/config", Read, "ws/.git/config", ""},
		{".git/HEAD", Write, "", CodeProtected},
		{".git/commondir", Write, "", CodeProtected},
		{".git/objects/ab/cd", Write, "", CodeProtected},
		{".git", Write, "", CodeProtected},
		{"sub/.git", Write, "", CodeProtected},
		{"sub/.Git/config", Write, "", CodeProtected},
		{"src/../.git/x", Write, "", CodeProtected},
		{filepath.Join(base, "ws/.git/info/x"), Write, "", CodeProtected},
		{"gitlink/commondir", Write, "", CodeProtected},
		{".git/HEAD", Read, "ws/.git/HEAD", ""},
		{".gitignore", Write, "ws/.gitignore", ""},
		{"sub/.git. /x", Write, "", CodeProtected}, // .git to NTFS
		{"GIT~1/config", Write, "", CodeProtected},
		{"git/config", Write, "ws/git/config", ""},
		{"src/x.git", Write, "ws/src/x.git", ""},
		{".ssh/id", Read, "", CodeProtected},
		{".ssh/authorized_keys", Write, "", CodeProtected},
		{"sub/.aws/credentials", Write, "", CodeProtected},
		{".gnupg", Read, "", CodeProtected},
		{"conflink/settings.json", Read, "", CodeProtected},
		{filepath.Join(base, "conf/settings.json"), Read, "", CodeProtected},
		// Read-only roots.
		{filepath.Join(base, "ro/doc.md"), Read, "ro/doc.md", ""},
		{filepath.Join(base, "ro/doc.md"), Write, "", CodeReadOnly},
		{filepath.Join(base, "ro/new.md"), Write, "", CodeReadOnly},
	}
	// A Batch answers as Resolve does, before and after it has seen the
	// folders (the cases run twice through the same one).
	b := w.Batch()
	resolvers := []struct {
		name    string
		resolve func(string, Access) (string, error)
	}{{"Resolve", w.Resolve}, {"Batch.Resolve", b.Resolve}, {"Batch.Resolve again", b.Resolve}}
	for _, r := range resolvers {
		t.Run(r.name, func(t *testing.T) { checkResolve(t, base, r.resolve, cases) })
	}
}

type resolveCase struct {
	path   string
	access Access
	want   string // resolved path relative to base, when accepted
	code   string // refusal code otherwise
}

func checkResolve(t *testing.T, base string, resolve func(string, Access) (string, error), cases []resolveCase) {
	for _, c := range cases {
		got, err := resolve(c.path, c.access)
		if c.code != "" {
			var we *Error
			if !errors.As(err, &we) {
				t.Errorf("Resolve(%q, %v) = %q, %v; want refusal %s", c.path, c.access, got, err, c.code)
				continue
			}
			if we.Code != c.code || we.ErrorPath() != c.path {
				t.Errorf("Resolve(%q, %v): code %s path %q, want %s", c.path, c.access, we.Code, we.ErrorPath(), c.code)
			}
			if !strings.Contains(err.Error(), c.path) {
				t.Errorf("Resolve(%q): error %q does not name the path", c.path, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Resolve(%q, %v): %v", c.path, c.access, err)
			continue
		}
		if want := filepath.Join(base, c.want); got != want {
			t.Errorf("Resolve(%q, %v) = %q, want %q", c.path, c.access, got, want)
		}
	}
}

func TestReadOnlyRootInsideWorkspace(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(base, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := New(base, Options{ReadOnlyRoots: []string{filepath.Join(base, "docs")}, ProtectedDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Resolve("docs/a.md", Read); err != nil {
		t.Errorf("read in read-only root: %v", err)
	}
	var we *Error
	if _, err := w.Resolve("docs/a.md", Write); !errors.As(err, &we) || we.Code != CodeReadOnly {
		t.Errorf("write in read-only root inside workspace: %v", err)
	}
	if _, err := w.Resolve("other.md", Write); err != nil {
		t.Errorf("write beside read-only root: %v", err)
	}
}

func TestRel(t *testing.T) {
	base, w := fixture(t)
	if got := w.Rel(filepath.Join(base, "ws", "src", "a.txt")); got != "src/a.txt" {
		t.Errorf("Rel = %q", got)
	}
	if got := w.Rel(filepath.Join(base, "ws")); got != "." {
		t.Errorf("Rel(root) = %q", got)
	}
	ro := filepath.Join(base, "ro", "doc.md")
	if got := w.Rel(ro); got != ro {
		t.Errorf("Rel(ro) = %q", got)
	}
}

func TestGatehouseDirs(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/data-home")
	t.Setenv("XDG_CONFIG_HOME", "/config-home")
	dirs := GatehouseDirs()
	want := map[string]bool{"/data-home/gatehouse": false, "/config-home/gatehouse": false}
	for _, d := range dirs {
		if _, ok := want[d]; ok {
			want[d] = true
		}
	}
	for d, seen := range want {
		if !seen {
			t.Errorf("GatehouseDirs() = %v, missing %s", dirs, d)
		}
	}
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/u")
	found := false
	for _, d := range GatehouseDirs() {
		found = found || d == "/home/u/.local/share/gatehouse"
	}
	if !found {
		t.Errorf("default data dir missing: %v", GatehouseDirs())
	}
}

func TestNewRefusesMissingRoot(t *testing.T) {
	if _, err := New(filepath.Join(t.TempDir(), "missing"), Options{}); err == nil {
		t.Error("New on a missing folder succeeded")
	}
}

// FuzzResolve checks the invariant of the boundary: whatever the path, an
// accepted result lies inside a root, is not protected for the access, and
// resolving it again gives itself.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"src/a.txt", "../x", "deep/x/y/out/s", "loop1", ".git/hooks/a", "/etc", "src/up/ws", "a/../../b", "link.txt/..", "dangling-out", "conflink", ".ssh"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	base, w := fixture(f)
	batch := w.Batch() // shared by the inputs: it must answer as Resolve
	f.Fuzz(func(t *testing.T, p string, write bool) {
		access := Read
		if write {
			access = Write
		}
		got, err := w.Resolve(p, access)
		if bgot, berr := batch.Resolve(p, access); bgot != got || fmt.Sprint(berr) != fmt.Sprint(err) {
			t.Fatalf("Batch.Resolve(%q, %v) = %q, %v; Resolve gives %q, %v", p, access, bgot, berr, got, err)
		}
		if err != nil {
			var we *Error
			if !errors.As(err, &we) || we.Path != p {
				t.Fatalf("Resolve(%q) error %v is not a *Error naming the path", p, err)
			}
			return
		}
		rel, inWS := under(w.root, got)
		_, inRO := under(filepath.Join(base, "ro"), got)
		if write && (!inWS || inRO) || !write && !inWS && !inRO {
			t.Fatalf("Resolve(%q, %v) = %q escapes", p, access, got)
		}
		if strings.HasPrefix(got, filepath.Join(base, "outside")) || strings.HasPrefix(got, filepath.Join(base, "conf")) {
			t.Fatalf("Resolve(%q) = %q reaches outside or a protected folder", p, got)
		}
		if inWS && protectedRel(rel, access) != "" {
			t.Fatalf("Resolve(%q) = %q is protected", p, got)
		}
		again, err := w.Resolve(got, access)
		if err != nil || again != got {
			t.Fatalf("Resolve(Resolve(%q)) = %q, %v; want %q", p, again, err, got)
		}
	})
}

// A name longer than any file system allows is refused the same way whether
// the folders before it exist or not (found by FuzzResolve).
func TestNameTooLongIsRefusedEveryTime(t *testing.T) {
	root := t.TempDir()
	w, err := New(root, Options{ProtectedDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("0", 256)
	for _, p := range []string{long, "missing/../" + long, "missing/" + long, filepath.Join(root, long)} {
		_, err := w.Resolve(p, Write)
		var we *Error
		if !errors.As(err, &we) || we.Code != CodeInvalid {
			t.Errorf("Resolve(%.20q…) = %v, want an invalid-path error", p, err)
		}
	}
	if _, err := w.Resolve(strings.Repeat("0", 255), Write); err != nil {
		t.Errorf("a 255-byte name was refused: %v", err)
	}
}

func TestInGit(t *testing.T) {
	for p, want := range map[string]bool{
		".git": true, "a/.git/b": true, ".GIT": true, "/abs/.git": true,
		".g\u200cit/config": true,                                 // .git to HFS+
		".git./x":           true, ".git :x": true, "GIT~1": true, // .git to NTFS
		".gitignore": false, "a.git": false, "git": false, ".github/x": false, "": false,
	} {
		if InGit(p) != want {
			t.Errorf("InGit(%q) = %v", p, !want)
		}
	}
}

// TestGatehouseFolderIsNotWritable: a tool never writes the workspace's
// .gatehouse/ (agents, servers, policy the user trusts), by any spelling or
// through a link; reading it stays allowed.
func TestGatehouseFolderIsNotWritable(t *testing.T) {
	base, w := fixture(t)
	if err := os.MkdirAll(filepath.Join(base, "ws/.gatehouse/agents"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(".gatehouse", filepath.Join(base, "ws/ghlink")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{".gatehouse/agents/z.md", ".gatehouse/mcp.json", ".gatehouse", ".GateHouse/x", "ghlink/agents/y.md",
		"src/../.gatehouse/policy.json", "sub/.gatehouse/mcp.json", filepath.Join(base, "ws/.gatehouse/x")} {
		_, err := w.Resolve(p, Write)
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeProtected || !strings.Contains(e.Reason, ".gatehouse") {
			t.Errorf("write %s: %v, want refused as .gatehouse", p, err)
		}
	}
	if _, err := w.Resolve(".gatehouse/mcp.json", Read); err != nil {
		t.Errorf("read .gatehouse/mcp.json: %v", err)
	}
	if _, err := w.Resolve("src/gatehouse.md", Write); err != nil {
		t.Errorf("write src/gatehouse.md: %v", err)
	}
}

// TestADeletedRootIsNotMadeAgain: once the root is deleted (a worktree
// removed behind the session's back), a write is refused rather than its
// missing folders made again, root included; a read just finds nothing.
func TestADeletedRootIsNotMadeAgain(t *testing.T) {
	root := filepath.Join(t.TempDir(), "wt")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := New(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(root); err != nil {
		t.Fatal(err)
	}
	var e *Error
	for _, p := range []string{"a.txt", "sub/dir/b.txt", filepath.Join(root, "c.txt")} {
		if _, err := w.Resolve(p, Write); !errors.As(err, &e) || e.Code != CodeGone || !strings.Contains(e.Reason, "no longer exists") {
			t.Fatalf("write %s: %v", p, err)
		}
	}
	if _, err := w.Resolve("a.txt", Read); errors.As(err, &e) && e.Code == CodeGone {
		t.Fatalf("read refused as gone: %v", err)
	}
}
