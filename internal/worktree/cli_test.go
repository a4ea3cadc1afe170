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
