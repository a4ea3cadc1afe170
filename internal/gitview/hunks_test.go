package gitview

import (
	"context"
	"errors"
	"strings"
	"testing"
)

var ctx = context.Background()

// Staging one hunk of a two-hunk change commits exactly that hunk.
func TestStageOneHunkCommitsExactlyThatHunk(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": lines20(nil)})
	g.write("a.txt", lines20(map[int]string{2: "TWO", 18: "EIGHTEEN"}))
	f := file(t, g.changes().Unstaged, "a.txt")
	if len(f.Hunks) != 2 {
		t.Fatalf("want two hunks, got %d:\n%s", len(f.Hunks), f.Diff)
	}
	if err := g.r.StageHunk(ctx, "a.txt", f.Hunks[0].ID); err != nil {
		t.Fatal(err)
	}
	c, err := g.r.Commit(ctx, CommitOptions{Message: "Change line two"})
	if err != nil {
		t.Fatal(err)
	}
	show := g.git("show", "--format=%B", "HEAD")
	if !strings.Contains(show, "+TWO") || strings.Contains(show, "EIGHTEEN") {
		t.Fatalf("the commit should hold the first hunk only:\n%s", show)
	}
	if strings.Contains(show, "Co-authored-by") || strings.Contains(g.git("log", "-1", "--format=%B"), ":") {
		t.Fatalf("no trailer was asked for:\n%s", show)
	}
	if c.Subject != "Change line two" || c.Hash == "" {
		t.Fatalf("commit = %+v", c)
	}
	after := g.changes()
	if len(after.Staged) != 0 || len(file(t, after.Unstaged, "a.txt").Hunks) != 1 {
		t.Fatalf("the second hunk should stay unstaged: %+v", after)
	}
	if !strings.Contains(g.read("a.txt"), "EIGHTEEN") {
		t.Fatal("the working tree lost the unstaged hunk")
	}
}

func TestUnstageOneHunk(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": lines20(nil)})
	g.write("a.txt", lines20(map[int]string{2: "TWO", 18: "EIGHTEEN"}))
	if err := g.r.StageFile(ctx, "a.txt"); err != nil {
		t.Fatal(err)
	}
	f := file(t, g.changes().Staged, "a.txt")
	if err := g.r.UnstageHunk(ctx, "a.txt", f.Hunks[1].ID); err != nil {
		t.Fatal(err)
	}
	c := g.changes()
	staged, unstaged := file(t, c.Staged, "a.txt"), file(t, c.Unstaged, "a.txt")
	if !strings.Contains(staged.Diff, "+TWO") || strings.Contains(staged.Diff, "EIGHTEEN") {
		t.Fatalf("staged:\n%s", staged.Diff)
	}
	if !strings.Contains(unstaged.Diff, "+EIGHTEEN") || strings.Contains(unstaged.Diff, "TWO") {
		t.Fatalf("unstaged:\n%s", unstaged.Diff)
	}
}

func TestHunkOfAChangedFileIsRefusedAsStale(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": lines20(nil)})
	g.write("a.txt", lines20(map[int]string{2: "TWO"}))
	id := file(t, g.changes().Unstaged, "a.txt").Hunks[0].ID
	g.write("a.txt", lines20(map[int]string{2: "TWO!"}))
	if err := g.r.StageHunk(ctx, "a.txt", id); !errors.Is(err, ErrStale) {
		t.Fatalf("err = %v, want ErrStale", err)
	}
	if len(g.changes().Staged) != 0 {
		t.Fatal("a stale hunk was staged")
	}
}

func TestNewFileStagedAndUnstagedByItsHunk(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n"})
	g.write("new.txt", "one\ntwo\n")
	if c := g.changes(); len(c.Untracked) != 1 || c.Untracked[0] != "new.txt" {
		t.Fatalf("untracked = %v", c.Untracked)
	}
	if err := g.r.StageFile(ctx, "new.txt"); err != nil {
		t.Fatal(err)
	}
	f := file(t, g.changes().Staged, "new.txt")
	if f.Status != "A" || len(f.Hunks) != 1 {
		t.Fatalf("staged new file: %+v", f)
	}
	if err := g.r.UnstageHunk(ctx, "new.txt", f.Hunks[0].ID); err != nil {
		t.Fatal(err)
	}
	c := g.changes()
	if len(c.Staged) != 0 || len(c.Untracked) != 1 {
		t.Fatalf("the new file should be untracked again: %+v", c)
	}
}

func TestDeletedFileStagedByItsHunk(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n", "gone.txt": "x\ny\n"})
	removeFile(t, g, "gone.txt")
	f := file(t, g.changes().Unstaged, "gone.txt")
	if f.Status != "D" || len(f.Hunks) != 1 {
		t.Fatalf("deleted file: %+v", f)
	}
	if err := g.r.StageHunk(ctx, "gone.txt", f.Hunks[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := g.r.Commit(ctx, CommitOptions{Message: "Remove gone.txt"}); err != nil {
		t.Fatal(err)
	}
	if out := g.git("show", "--stat", "--format=", "HEAD"); !strings.Contains(out, "gone.txt") {
		t.Fatalf("the deletion is not in the commit: %s", out)
	}
	if out := g.git("ls-files"); strings.Contains(out, "gone.txt") {
		t.Fatal("gone.txt is still tracked")
	}
}

func TestNoNewlineAtEndStagedByHunk(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": lines20(nil) + "last"})
	g.write("a.txt", lines20(map[int]string{1: "ONE"})+"LAST")
	f := file(t, g.changes().Unstaged, "a.txt")
	if len(f.Hunks) != 2 || !strings.Contains(f.Diff, `\ No newline at end of file`) {
		t.Fatalf("want two hunks, one at a file without a final newline:\n%s", f.Diff)
	}
	if err := g.r.StageHunk(ctx, "a.txt", f.Hunks[1].ID); err != nil {
		t.Fatal(err)
	}
	staged := g.git("show", ":a.txt")
	if !strings.HasSuffix(staged, "\nLAST") || strings.Contains(staged, "ONE") {
		t.Fatalf("index content:\n%q", staged)
	}
}

func TestRenamedFileUnstagedByFile(t *testing.T) {
	g := newRepo(t, map[string]string{"old.txt": "same\n"})
	g.git("mv", "old.txt", "new.txt")
	c := g.changes()
	if file(t, c.Staged, "old.txt").Status != "D" || file(t, c.Staged, "new.txt").Status != "A" {
		t.Fatalf("a rename shows as its deletion and its addition: %+v", c.Staged)
	}
	for _, p := range []string{"new.txt", "old.txt"} {
		if err := g.r.UnstageFile(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	c = g.changes()
	if len(c.Staged) != 0 || file(t, c.Unstaged, "old.txt").Status != "D" || len(c.Untracked) != 1 {
		t.Fatalf("after unstaging: %+v", c)
	}
}

func TestStageFileBeforeFirstCommitAndUnstageIt(t *testing.T) {
	g := newRepo(t, nil)
	g.write("a.txt", "a\n")
	if err := g.r.StageFile(ctx, "a.txt"); err != nil {
		t.Fatal(err)
	}
	c := g.changes()
	if c.Head != "" || c.Branch != "main" || file(t, c.Staged, "a.txt").Status != "A" {
		t.Fatalf("before the first commit: %+v", c)
	}
	if err := g.r.UnstageFile(ctx, "a.txt"); err != nil {
		t.Fatal(err)
	}
	if c := g.changes(); len(c.Staged) != 0 || len(c.Untracked) != 1 {
		t.Fatalf("after unstaging: %+v", c)
	}
}

func TestBranchAndAheadBehind(t *testing.T) {
	up := newRepo(t, map[string]string{"a.txt": "a\n"})
	g := newRepo(t, nil)
	g.git("remote", "add", "origin", up.dir)
	g.git("fetch", "-q", "origin")
	g.git("checkout", "-q", "-b", "work", "--track", "origin/main")
	g.write("b.txt", "b\n")
	g.git("add", "b.txt")
	g.git("commit", "-q", "-m", "mine")
	up.write("c.txt", "c\n")
	up.git("add", "c.txt")
	up.git("commit", "-q", "-m", "theirs")
	up.git("commit", "-q", "--allow-empty", "-m", "theirs 2")
	g.git("fetch", "-q", "origin")
	c := g.changes()
	if c.Branch != "work" || c.Upstream != "origin/main" || c.Ahead != 1 || c.Behind != 2 {
		t.Fatalf("branch = %q upstream = %q ahead %d behind %d", c.Branch, c.Upstream, c.Ahead, c.Behind)
	}
}

func TestWorkspaceInASubfolderSeesItsOwnFiles(t *testing.T) {
	g := newRepo(t, map[string]string{"top.txt": "t\n", "sub/a.txt": lines20(nil)})
	g.write("top.txt", "changed\n")
	g.write("sub/a.txt", lines20(map[int]string{3: "THREE"}))
	g.write("sub/new.txt", "n\n")
	r, err := Open(ctx, g.dir+"/sub", func() bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if r.Prefix != "sub/" {
		t.Fatalf("prefix = %q", r.Prefix)
	}
	c, err := r.Changes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Unstaged) != 1 || c.Unstaged[0].Path != "a.txt" || len(c.Untracked) != 1 || c.Untracked[0] != "new.txt" {
		t.Fatalf("the subfolder's changes only, relative to it: %+v", c)
	}
	if err := r.StageHunk(ctx, "a.txt", c.Unstaged[0].Hunks[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := r.StageFile(ctx, "new.txt"); err != nil {
		t.Fatal(err)
	}
	if out := g.git("diff", "--cached", "--name-only"); out != "sub/a.txt\nsub/new.txt\n" {
		t.Fatalf("staged: %q", out)
	}
}

// In a worktree session's worktree the view also shows the branch against
// the branch it came from.
func TestWorktreeBranchAgainstItsBase(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": lines20(nil)})
	wt := t.TempDir() + "/wt"
	g.git("worktree", "add", "-q", "-b", "gatehouse/one", wt, "main")
	g.git("symbolic-ref", "refs/gatehouse/base/one", "refs/heads/main")
	w := &repo{t: t, dir: wt}
	w.write("a.txt", lines20(map[int]string{5: "FIVE"}))
	w.git("commit", "-q", "-am", "Five")
	w.write("b.txt", "uncommitted\n")
	r, err := Open(ctx, wt, func() bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	if r.Main != g.dir {
		t.Fatalf("main worktree = %q, want %q", r.Main, g.dir)
	}
	c, err := r.Changes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	a := c.Against
	if a == nil || a.Base != "main" || len(a.Commits) != 1 || !strings.HasSuffix(a.Commits[0], " Five") || len(a.Files) != 1 || !strings.Contains(a.Files[0].Diff, "+FIVE") {
		t.Fatalf("against = %+v", a)
	}
	if len(c.Untracked) != 1 {
		t.Fatalf("untracked = %v", c.Untracked)
	}
	if main := g.changes(); main.Against != nil {
		t.Fatal("main is not a worktree session's branch")
	}
}
