package worktree

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/gitcmd/gittest"
)

var ctx = context.Background()

type repo struct {
	t   *testing.T
	dir string
	r   *Repo
}

func newRepo(t *testing.T, files map[string]string) *repo {
	t.Helper()
	gittest.Home(t)
	parent, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	g := &repo{t: t, dir: filepath.Join(parent, "proj")}
	os.Mkdir(g.dir, 0o755)
	g.git(g.dir, "init", "-q")
	for p, c := range files {
		g.write(g.dir, p, c)
	}
	g.git(g.dir, "add", "-A")
	g.git(g.dir, "commit", "-q", "-m", "first")
	if g.r, err = Open(ctx, g.dir); err != nil {
		t.Fatal(err)
	}
	return g
}

func (g *repo) git(dir string, args ...string) string {
	g.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		g.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func (g *repo) write(dir, rel, content string) {
	g.t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		g.t.Fatal(err)
	}
}

// treeHash hashes every file of dir but .git, names and bytes.
func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			b, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			fmt.Fprintf(h, "%s\x00%d\x00", rel, len(b))
			h.Write(b)
		}
		return nil
	})
	return fmt.Sprintf("%x", h.Sum(nil))
}

// A worktree session's edits and commits leave the main worktree
// byte-identical; the listed untracked files are copied in.
func TestWorktreeEditsLeaveTheMainWorktreeAsItWas(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n", ".gitignore": ".env\n"})
	g.write(g.dir, ".env", "SECRET=1\n")
	before := treeHash(t, g.dir)
	w, err := g.r.Create(ctx, "fix-1", "", []string{".env", "missing.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if w.Path != filepath.Join(filepath.Dir(g.dir), "proj.worktrees", "fix-1") || w.Branch != "gatehouse/fix-1" || w.Base != "main" {
		t.Fatalf("worktree = %+v", w)
	}
	if b, _ := os.ReadFile(filepath.Join(w.Path, ".env")); string(b) != "SECRET=1\n" {
		t.Fatalf(".env was not copied: %q", b)
	}
	g.write(w.Path, "a.txt", "changed in the worktree\n")
	g.write(w.Path, "new.txt", "new\n")
	g.git(w.Path, "add", "-A")
	g.git(w.Path, "commit", "-q", "-m", "worktree work")
	if after := treeHash(t, g.dir); after != before {
		t.Fatal("the main worktree changed")
	}
	ws, err := g.r.List(ctx)
	if err != nil || len(ws) != 1 || ws[0].Name != "fix-1" || ws[0].Base != "main" {
		t.Fatalf("list = %+v, %v", ws, err)
	}
}

func TestMergeOfACleanBranchLandsItsCommits(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n"})
	w, err := g.r.Create(ctx, "feat", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	g.write(w.Path, "b.txt", "b\n")
	if _, err := g.r.Merge(ctx, "feat", ""); !errors.Is(err, ErrUncommitted) {
		t.Fatalf("uncommitted work: err = %v", err)
	}
	m, err := g.r.Merge(ctx, "feat", "Add b")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Commits) != 1 || !strings.HasSuffix(m.Commits[0], " Add b") || m.Base != "main" {
		t.Fatalf("merged = %+v", m)
	}
	if b, _ := os.ReadFile(filepath.Join(g.dir, "b.txt")); string(b) != "b\n" {
		t.Fatal("b.txt did not land in the main worktree")
	}
	if log := g.git(g.dir, "log", "--format=%s", "main"); !strings.Contains(log, "Add b") {
		t.Fatalf("main's log: %s", log)
	}
}

func TestConflictingMergeIsRefusedWithTheFilesAndNothingChanged(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n", "c.txt": "c\n"})
	w, _ := g.r.Create(ctx, "feat", "", nil)
	g.write(w.Path, "a.txt", "theirs\n")
	g.git(w.Path, "commit", "-q", "-am", "theirs")
	// Uncommitted changes in the main worktree to a file the branch changes.
	g.write(g.dir, "a.txt", "mine, not committed\n")
	head := g.git(g.dir, "rev-parse", "HEAD")
	before := treeHash(t, g.dir)
	_, err := g.r.Merge(ctx, "feat", "")
	var refused *Refused
	if !errors.As(err, &refused) || len(refused.Files) != 1 || refused.Files[0] != "a.txt" {
		t.Fatalf("err = %v", err)
	}
	// A committed change that conflicts.
	g.git(g.dir, "commit", "-q", "-am", "mine")
	head = g.git(g.dir, "rev-parse", "HEAD")
	before = treeHash(t, g.dir)
	_, err = g.r.Merge(ctx, "feat", "")
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "a.txt") || !strings.Contains(err.Error(), "conflict") {
		t.Fatalf("err = %v", err)
	}
	if g.git(g.dir, "rev-parse", "HEAD") != head || treeHash(t, g.dir) != before {
		t.Fatal("a refused merge changed the main worktree")
	}
	if st := g.git(g.dir, "status", "--porcelain"); st != "" {
		t.Fatalf("status after a refused merge: %q", st)
	}
}

func TestDiscardListsUnmergedCommitsThenRemovesWorktreeAndBranch(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n"})
	w, _ := g.r.Create(ctx, "try", "", nil)
	g.write(w.Path, "x.txt", "x\n")
	g.git(w.Path, "add", "x.txt")
	g.git(w.Path, "commit", "-q", "-m", "experiment")
	err := g.r.Discard(ctx, "try", false)
	var un *Unmerged
	if !errors.As(err, &un) || len(un.Commits) != 1 || !strings.HasSuffix(un.Commits[0], " experiment") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(w.Path); err != nil {
		t.Fatal("an unconfirmed discard removed the worktree")
	}
	if err := g.r.Discard(ctx, "try", true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(w.Path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("the worktree folder is still there")
	}
	if out := g.git(g.dir, "branch", "--list", "gatehouse/try"); out != "" {
		t.Fatalf("the branch is still there: %q", out)
	}
}

// A worktree deleted behind git's back is listed as missing and can be
// discarded.
func TestWorktreeDeletedBehindItsBack(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n"})
	w, _ := g.r.Create(ctx, "gone", "", nil)
	os.RemoveAll(w.Path)
	ws, _ := g.r.List(ctx)
	if len(ws) != 1 || !ws[0].Missing {
		t.Fatalf("list = %+v", ws)
	}
	if _, err := g.r.Merge(ctx, "gone", ""); err == nil || !strings.Contains(err.Error(), "is gone") {
		t.Fatalf("merge of a missing worktree: %v", err)
	}
	if err := g.r.Discard(ctx, "gone", false); err != nil {
		t.Fatal(err)
	}
	if ws, _ := g.r.List(ctx); len(ws) != 0 {
		t.Fatalf("still listed: %+v", ws)
	}
}

func TestNamesAreCheckedAndOpenFindsTheMainWorktree(t *testing.T) {
	for _, bad := range []string{"", "../x", "a/b", ".hidden", "x.lock", strings.Repeat("a", 65)} {
		if CheckName(bad) == nil {
			t.Errorf("name %q accepted", bad)
		}
	}
	g := newRepo(t, map[string]string{"a.txt": "a\n"})
	w, err := g.r.Create(ctx, "n", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(ctx, w.Path)
	if err != nil || r.Top != g.dir {
		t.Fatalf("Open from the worktree: %+v %v", r, err)
	}
}

// TestLookingRunsNoProgramOfTheRepositorysConfig: a repository's config
// can name an fsmonitor program that git starts when it merely looks at
// the folder (a downloaded archive can ship one). Listing the worktree
// sessions and what discarding one would lose only look: the program does
// not run.
func TestLookingRunsNoProgramOfTheRepositorysConfig(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n"})
	w, err := g.r.Create(ctx, "w1", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	g.write(w.Path, "b.txt", "b\n") // something uncommitted, so status looks
	marker := filepath.Join(t.TempDir(), "ran")
	hook := filepath.Join(t.TempDir(), "fsmonitor.sh")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho \"$@\" >> "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	g.git(g.dir, "config", "core.fsmonitor", hook)
	if _, err := g.r.List(ctx); err != nil {
		t.Fatal(err)
	}
	lost, err := g.r.Losses(ctx, "w1")
	if err != nil {
		t.Fatal(err)
	}
	if lost == nil || len(lost.Uncommitted) != 1 || lost.Uncommitted[0] != "b.txt" {
		t.Fatalf("losses %+v", lost)
	}
	if b, err := os.ReadFile(marker); err == nil {
		t.Fatalf("the repository's fsmonitor ran: %q", b)
	}
}
