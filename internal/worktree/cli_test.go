package worktree

import (
	"bytes"
	"strings"
	"testing"
)

func run(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := Main(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCommandMakesListsMergesAndDiscards(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n"})
	code, out, errs := run("new", "--workspace", g.dir, "one")
	if code != 0 || !strings.Contains(out, "branch gatehouse/one (from main)") {
		t.Fatalf("new: %d %q %q", code, out, errs)
	}
	path := strings.TrimPrefix(strings.SplitN(out, "\n", 2)[0], "worktree ")
	g.write(path, "b.txt", "b\n")
	if code, _, errs := run("merge", "--workspace", g.dir, "one"); code != 1 || !strings.Contains(errs, "--commit MESSAGE") {
		t.Fatalf("merge with uncommitted changes: %d %q", code, errs)
	}
	if code, out, errs := run("merge", "--workspace", g.dir, "--commit", "Add b", "one"); code != 0 || !strings.Contains(out, "merged 1 commit(s) into main") {
		t.Fatalf("merge: %d %q %q", code, out, errs)
	}
	if code, out, _ := run("list", "--workspace", path); code != 0 || !strings.Contains(out, "one\tgatehouse/one\tfrom main") {
		t.Fatalf("list: %d %q", code, out)
	}
	if code, out, errs := run("discard", "--workspace", g.dir, "one"); code != 0 || !strings.Contains(out, "discarded") {
		t.Fatalf("discard of a merged branch: %d %q %q", code, out, errs)
	}
	if code, _, _ := run("bogus", "x"); code != 2 {
		t.Fatal("an unknown verb is a usage error")
	}
}

func TestExecArgsPointTheTurnAtAWorktree(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n"})
	args := []string{"--workspace", g.dir, "--prompt", "hi", "--json"}
	if got, err := ExecArgs(ctx, args, &bytes.Buffer{}); err != nil || strings.Join(got, " ") != strings.Join(args, " ") {
		t.Fatalf("without --worktree: %v %v", got, err)
	}
	var out bytes.Buffer
	got, err := ExecArgs(ctx, []string{"--workspace=" + g.dir, "--worktree", "job", "--prompt", "hi"}, &out)
	if err != nil {
		t.Fatal(err)
	}
	w, err := g.r.Find(ctx, "job")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, " ") != "--workspace "+w.Path+" --prompt hi" || !strings.Contains(out.String(), "branch gatehouse/job (from main)") {
		t.Fatalf("args %v, printed %q", got, out.String())
	}
	// The named one again: the same worktree.
	if again, err := ExecArgs(ctx, []string{"--worktree=job", "--workspace", g.dir, "--prompt", "x"}, &out); err != nil || again[1] != w.Path {
		t.Fatalf("again: %v %v", again, err)
	}
	// Without a name: a new one.
	if fresh, err := ExecArgs(ctx, []string{"--workspace", g.dir, "--worktree", "--prompt", "x"}, &out); err != nil || !strings.Contains(fresh[1], "exec-") {
		t.Fatalf("unnamed: %v %v", fresh, err)
	}
}
