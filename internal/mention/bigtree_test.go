package mention

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/workspace"
)

// bigTree writes a workspace of files files in folders of 50 (half of them
// in a node_modules its .gitignore leaves out) and one file 12 folders
// deep, last in the walk's order; it returns the deep file's path.
func bigTree(t testing.TB, root string, files int) string {
	t.Helper()
	write := func(p string) {
		if err := os.WriteFile(filepath.Join(root, p), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mkdir := func(p string) {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i := 0; i < files/2; i += 50 {
		src, mod := fmt.Sprintf("src/pkg%04d", i/50), fmt.Sprintf("node_modules/mod%04d/lib", i/50)
		mkdir(src)
		mkdir(mod)
		for j := range 50 {
			write(fmt.Sprintf("%s/file%02d.go", src, j))
			write(fmt.Sprintf("%s/index%02d.js", mod, j))
		}
	}
	write(".gitignore")
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("node_modules/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	parts := []string{"src", "zz"} // last in the walk's order
	for i := range 10 {
		parts = append(parts, fmt.Sprintf("level%02d", i+1))
	}
	deep := strings.Join(parts, "/") + "/needle_handler.go"
	mkdir(filepath.Dir(deep))
	write(deep)
	return deep
}

// TestMentionFindsAFile12FoldersDeepIn100000Files: an @ query for a file
// 12 folders deep in a 100,000-file workspace finds it (the list once
// globbed ** capped at 1,000 entries, and missed it); what .gitignore
// leaves out (a node_modules of 50,000 files) is not offered.
func TestMentionFindsAFile12FoldersDeepIn100000Files(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100,000 files")
	}
	root := t.TempDir()
	deep := bigTree(t, root, 100_000)
	ws, err := workspace.New(root, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	got := Candidates(context.Background(), ws, "needle_hand", 20)
	t.Logf("@needle_hand answered in %v: %v", time.Since(start), got)
	if len(got) == 0 || got[0] != deep {
		t.Fatalf("@needle_hand → %v, want %s first", got, deep)
	}
	if got := Candidates(context.Background(), ws, "index07", 20); slices.ContainsFunc(got, func(p string) bool { return strings.HasPrefix(p, "node_modules") }) {
		t.Fatalf("an ignored path was offered: %v", got)
	}
	if got := Candidates(context.Background(), ws, "level10/", 5); len(got) == 0 || got[0] != filepath.Dir(deep)+"/" {
		t.Fatalf("the deep folder → %v", got)
	}
}
