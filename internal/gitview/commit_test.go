package gitview

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/checkpoint"
	"gatehouse/internal/workspace"
)

// A discarded hunk is recorded in the undo store and undoing it brings the
// hunk back.
func TestDiscardHunkIsUndoable(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": lines20(nil)})
	edited := lines20(map[int]string{2: "TWO", 18: "EIGHTEEN"})
	g.write("a.txt", edited)
	ws, err := workspace.New(g.dir, workspace.Options{ProtectedDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := checkpoint.Open(t.TempDir(), 0)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := checkpoint.NewRecorder(st, "s1", ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	keep := func(paths []string, change func() error) (string, error) {
		u, err := rec.Record("discard", checkpoint.ByDiscard, paths, change)
		return string(u), err
	}
	f := file(t, g.changes().Unstaged, "a.txt")
	unit, err := g.r.DiscardHunk(ctx, keep, "a.txt", f.Hunks[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	if unit != "discard-1" {
		t.Fatalf("unit = %q", unit)
	}
	if got := g.read("a.txt"); got != lines20(map[int]string{2: "TWO"}) {
		t.Fatalf("after the discard:\n%s", got)
	}
	out, _, err := checkpoint.Undoer{Store: st, Session: "s1", WS: ws}.Apply(rec.Changes(), checkpoint.Unit(unit), checkpoint.Selection{}, rec.Append)
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Restored) != 1 || g.read("a.txt") != edited {
		t.Fatalf("undo of the discard: %+v\n%s", out, g.read("a.txt"))
	}
}

func TestDiscardUntrackedFileIsUndoable(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n"})
	g.write("new.txt", "keep me\n")
	var kept []string
	var saved string
	keep := func(paths []string, change func() error) (string, error) {
		kept, saved = paths, g.read("new.txt")
		return "discard-1", change()
	}
	if _, err := g.r.DiscardFile(ctx, keep, "new.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(g.dir, "new.txt")); !errors.Is(err, os.ErrNotExist) || len(kept) != 1 || saved != "keep me\n" {
		t.Fatalf("the file should be kept, then removed: kept %v %q, stat %v", kept, saved, err)
	}
	if _, err := g.r.DiscardFile(ctx, keep, "a.txt"); err == nil {
		t.Fatal("a file without changes has nothing to discard")
	}
}

func TestFailingHookShowsItsOutput(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n"})
	hook := filepath.Join(g.dir, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\necho 'lint: a.txt has a problem'\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	g.write("a.txt", "b\n")
	if err := g.r.StageFile(ctx, "a.txt"); err != nil {
		t.Fatal(err)
	}
	_, err := g.r.Commit(ctx, CommitOptions{Message: "Change a"})
	var ge *Error
	if !errors.As(err, &ge) || !strings.Contains(err.Error(), "lint: a.txt has a problem") {
		t.Fatalf("err = %v, want the hook's output", err)
	}
	if n := strings.Count(g.git("log", "--oneline"), "\n"); n != 1 {
		t.Fatalf("%d commits, want the first only", n)
	}
}

func TestCommitTrailerOnlyFromTheSetting(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n"})
	g.write("a.txt", "b\n")
	g.r.StageFile(ctx, "a.txt")
	if _, err := g.r.Commit(ctx, CommitOptions{Message: "Change a\n\nWhy it changed.", Trailer: "Assisted-by: Gatehouse"}); err != nil {
		t.Fatal(err)
	}
	if msg := g.git("log", "-1", "--format=%B"); msg != "Change a\n\nWhy it changed.\n\nAssisted-by: Gatehouse\n\n" {
		t.Fatalf("message = %q", msg)
	}
}

func TestAmendLastCommit(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n"})
	g.write("b.txt", "b\n")
	g.r.StageFile(ctx, "b.txt")
	if _, err := g.r.Commit(ctx, CommitOptions{Message: "Add b"}); err != nil {
		t.Fatal(err)
	}
	if m, _ := g.r.LastMessage(ctx); m != "Add b" {
		t.Fatalf("last message = %q", m)
	}
	g.write("c.txt", "c\n")
	g.r.StageFile(ctx, "c.txt")
	if _, err := g.r.Commit(ctx, CommitOptions{Message: "Add b and c", Amend: true}); err != nil {
		t.Fatal(err)
	}
	if log := g.git("log", "--format=%s"); log != "Add b and c\nfirst\n" {
		t.Fatalf("log = %q", log)
	}
	if files := g.git("show", "--name-only", "--format=", "HEAD"); files != "b.txt\nc.txt\n" {
		t.Fatalf("amended commit holds %q", files)
	}
	if _, err := g.r.Commit(ctx, CommitOptions{}); err == nil {
		t.Fatal("a commit without a message should be refused")
	}
}
