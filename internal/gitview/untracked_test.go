package gitview

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestUncommittedHoldsUntrackedFilesAsAdded: the uncommitted changes are
// the tracked files' diff and every untracked file that is not ignored, as
// an added file with its lines (a file without a final newline says so, an
// empty one has no hunk, a symbolic link shows its target, a binary one no
// lines); ignored files and files outside the workspace's folder are left
// out. Read through git's safe mode: the repository is untrusted.
func TestUncommittedHoldsUntrackedFilesAsAdded(t *testing.T) {
	g := newRepo(t, map[string]string{"sub/a.txt": "one\n", ".gitignore": "*.log\n", "top.txt": "x\n"})
	g.write("sub/a.txt", "one\ntwo\n")
	g.write("sub/new.go", "package x\n\nfunc F() {}\n")
	g.write("sub/deep/last.txt", "no newline")
	g.write("sub/empty.txt", "")
	g.write("sub/blob.bin", "a\x00b")
	g.write("sub/debug.log", "ignored\n")
	g.write("outside.txt", "not in the workspace\n")
	if err := os.Symlink("../../etc/passwd", filepath.Join(g.dir, "sub", "link")); err != nil {
		t.Fatal(err)
	}
	r, err := Open(context.Background(), filepath.Join(g.dir, "sub"), nil)
	if err != nil || !r.Safe() {
		t.Fatalf("open: %v, safe %v", err, r.Safe())
	}
	files, raw, err := r.TargetDiff(context.Background(), Target{Kind: TargetUncommitted})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]FileDiff{}
	for _, f := range files {
		got[f.Path] = f
	}
	if len(files) != 6 {
		t.Fatalf("%d files:\n%s", len(files), raw)
	}
	if f := got["a.txt"]; f.Status != "M" || f.Added != 1 {
		t.Errorf("the tracked change: %+v", f)
	}
	if f := got["new.go"]; f.Status != "A" || f.Added != 3 || len(f.Hunks) != 1 || f.Hunks[0].Header != "@@ -0,0 +1,3 @@" ||
		!strings.Contains(f.Diff, "--- /dev/null\n+++ b/new.go\n@@ -0,0 +1,3 @@\n+package x\n+\n+func F() {}\n") {
		t.Errorf("new.go: %+v", f)
	}
	if f := got["deep/last.txt"]; f.Status != "A" || f.Hunks[0].Header != "@@ -0,0 +1 @@" || !strings.HasSuffix(f.Diff, "+no newline\n\\ No newline at end of file\n") {
		t.Errorf("deep/last.txt: %+v", f)
	}
	if f := got["empty.txt"]; f.Status != "A" || len(f.Hunks) != 0 {
		t.Errorf("empty.txt: %+v", f)
	}
	if f := got["blob.bin"]; f.Status != "A" || !f.Binary || strings.Contains(f.Diff, "a\x00b") {
		t.Errorf("blob.bin: %+v", f)
	}
	if f := got["link"]; f.Status != "A" || !strings.Contains(f.Diff, "new file mode 120000") || !strings.Contains(f.Diff, "+../../etc/passwd\n") ||
		strings.Contains(f.Diff, "root:") {
		t.Errorf("link: %+v", f)
	}
	if strings.Contains(raw, "debug.log") || strings.Contains(raw, "outside.txt") {
		t.Errorf("an ignored file or one outside the workspace is in the diff:\n%s", raw)
	}
	// The text files' diffs are git's own format: git apply takes them.
	patch := filepath.Join(t.TempDir(), "added.patch")
	text := got["new.go"].Diff + got["deep/last.txt"].Diff + got["empty.txt"].Diff + got["link"].Diff
	if err := os.WriteFile(patch, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	g.git("apply", "--check", "--cached", "--directory=sub", patch)
	for _, tg := range []Target{{Kind: TargetStaged}} {
		if _, raw, _ := r.TargetDiff(context.Background(), tg); strings.Contains(raw, "new.go") {
			t.Errorf("%s holds an untracked file:\n%s", tg, raw)
		}
	}
}

// TestAddedFileDiffQuotesPathsAsGit: a path with a quote, a backslash or a
// control character is quoted in git's way, and the parser reads it back.
func TestAddedFileDiffQuotesPathsAsGit(t *testing.T) {
	dir := t.TempDir()
	name := "a \"b\"\\c\td"
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	addedFileDiff(&b, name, filepath.Join(dir, "f"))
	if !strings.HasPrefix(b.String(), `diff --git "a/a \"b\"\\c\td" "b/a \"b\"\\c\td"`) {
		t.Fatalf("quoted: %s", b.String())
	}
	files := parseDiff(b.String())
	if len(files) != 1 || files[0].Path != name || files[0].Status != "A" {
		t.Fatalf("parsed back: %+v", files)
	}
}
