package gitview

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// plant gives the repository a .git/config and .gitattributes that run a
// program (each touching a marker file) when git looks at the folder:
// fsmonitor, a textconv, an external diff, a clean filter, and a
// pre-commit hook. It returns the marker folder.
func plant(t *testing.T, g *repo) string {
	t.Helper()
	marks := t.TempDir()
	mark := func(name string) string { return "touch " + filepath.Join(marks, name) }
	g.git("config", "core.fsmonitor", mark("fsmonitor")+"; false")
	g.git("config", "diff.evil.textconv", mark("textconv")+"; cat")
	g.git("config", "diff.evil.command", mark("extdiff"))
	g.git("config", "diff.external", mark("external"))
	g.git("config", "filter.evil.clean", mark("clean")+"; cat")
	g.git("config", "filter.evil.smudge", mark("smudge")+"; cat")
	g.git("config", "filter.my.dotted.process", mark("process"))
	hook := filepath.Join(g.dir, ".git", "hooks", "pre-commit")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\n"+mark("hook")+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	g.write(".gitattributes", "*.txt filter=evil diff=evil\n*.md filter=my.dotted\n")
	return marks
}

func ran(t *testing.T, marks string) []string {
	t.Helper()
	es, err := os.ReadDir(marks)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// Until the folder is trusted, nothing the repository's config names runs:
// not while looking, staging, unstaging or discarding, and committing is
// refused.
func TestUntrustedRepositoryRunsNothingItConfigures(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": lines20(nil), "b.md": "b\n"})
	marks := plant(t, g)
	g.r.Trusted = func() bool { return false }
	g.write("a.txt", lines20(map[int]string{2: "TWO", 18: "EIGHTEEN"}))
	g.write("b.md", "changed\n")
	g.write("c.txt", "new\n")
	// Old timestamps force git to read the files' content.
	past := mustTime(t)
	for _, p := range []string{"a.txt", "b.md"} {
		os.Chtimes(filepath.Join(g.dir, p), past, past)
	}
	c := g.changes()
	if !c.Safe {
		t.Fatal("Changes should say git ran in safe mode")
	}
	f := file(t, c.Unstaged, "a.txt")
	if err := g.r.StageHunk(ctx, "a.txt", f.Hunks[0].ID); err != nil {
		t.Fatal(err)
	}
	if err := g.r.StageFile(ctx, "c.txt"); err != nil {
		t.Fatal(err)
	}
	if err := g.r.StageFile(ctx, "b.md"); err != nil {
		t.Fatal(err)
	}
	if err := g.r.UnstageFile(ctx, "b.md"); err != nil {
		t.Fatal(err)
	}
	c = g.changes()
	if _, err := g.r.DiscardHunk(ctx, noKeep, "a.txt", file(t, c.Unstaged, "a.txt").Hunks[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := g.r.DiscardFile(ctx, noKeep, "b.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := g.r.StagedDiff(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := g.r.Commit(ctx, CommitOptions{Message: "x"}); err != ErrUntrusted {
		t.Fatalf("commit in an untrusted repository: err = %v, want ErrUntrusted", err)
	}
	if got := ran(t, marks); len(got) != 0 {
		t.Fatalf("the repository's config ran %v in safe mode", got)
	}

	// The plant is real: trusted, git runs what the repository configures.
	g.r.Trusted = func() bool { return true }
	g.git("config", "--unset", "filter.my.dotted.process") // a process filter that exits breaks git itself
	g.write("b.md", "again\n")
	g.write("a.txt", "again\n")
	os.Chtimes(filepath.Join(g.dir, "b.md"), past, past)
	os.Chtimes(filepath.Join(g.dir, "a.txt"), past, past)
	g.changes()
	if _, err := g.r.Commit(ctx, CommitOptions{Message: "trusted"}); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(ran(t, marks), " ")
	for _, want := range []string{"fsmonitor", "clean", "hook"} {
		if !strings.Contains(got, want) {
			t.Errorf("trusted: %s did not run (ran: %s); the plant proves nothing", want, got)
		}
	}
}

func noKeep(_ []string, change func() error) (string, error) { return "", change() }
