package gitview

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/gitcmd/gittest"
)

// repo is a real git repository in a temporary folder, with its own
// identity and no global or system config.
type repo struct {
	t   *testing.T
	dir string
	r   *Repo
}

func isolateGit(t *testing.T) {
	t.Helper()
	gittest.Home(t)
}

// newRepo makes a repository (trusted: its settings are the test's own)
// with files committed as its first commit (none: no commit).
func newRepo(t *testing.T, files map[string]string) *repo {
	t.Helper()
	isolateGit(t)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	g := &repo{t: t, dir: dir}
	g.git("init", "-q")
	for p, c := range files {
		g.write(p, c)
	}
	if len(files) > 0 {
		g.git("add", "-A")
		g.git("commit", "-q", "-m", "first")
	}
	g.r, err = Open(context.Background(), dir, func() bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func (g *repo) git(args ...string) string {
	g.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = g.dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		g.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (g *repo) write(rel, content string) {
	g.t.Helper()
	p := filepath.Join(g.dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		g.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		g.t.Fatal(err)
	}
}

func (g *repo) read(rel string) string {
	g.t.Helper()
	b, err := os.ReadFile(filepath.Join(g.dir, filepath.FromSlash(rel)))
	if err != nil {
		g.t.Fatal(err)
	}
	return string(b)
}

func (g *repo) changes() Changes {
	g.t.Helper()
	c, err := g.r.Changes(context.Background())
	if err != nil {
		g.t.Fatal(err)
	}
	return c
}

// file is path's entry of a diff.
func file(t *testing.T, files []FileDiff, path string) FileDiff {
	t.Helper()
	for _, f := range files {
		if f.Path == path {
			return f
		}
	}
	t.Fatalf("%s is not in the diff: %+v", path, files)
	return FileDiff{}
}

// lines20 is a file of 20 numbered lines, with line n replaced per edits.
func lines20(edits map[int]string) string {
	var b strings.Builder
	for i := 1; i <= 20; i++ {
		if e, ok := edits[i]; ok {
			b.WriteString(e + "\n")
			continue
		}
		b.WriteString("line " + string(rune('a'+i-1)) + "\n")
	}
	return b.String()
}

func removeFile(t *testing.T, g *repo, rel string) {
	t.Helper()
	if err := os.Remove(filepath.Join(g.dir, filepath.FromSlash(rel))); err != nil {
		t.Fatal(err)
	}
}

func mustTime(t *testing.T) time.Time {
	t.Helper()
	return time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
}
