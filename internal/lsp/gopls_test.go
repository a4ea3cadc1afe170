package lsp

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestGoplsComparesAnEdit: a Go file checked before and after an edit
// that breaks it reports the new error as introduced, path:line:col error
// undefined: …; the edit back reports it fixed.
func TestGoplsComparesAnEdit(t *testing.T) {
	needServer(t, "gopls")
	root := t.TempDir()
	plant(t, root, map[string]string{"go.mod": goMod, "main.go": goClean})
	m := newTestManager(t, root, Options{Unchanged: 5 * time.Second})
	file := filepath.Join(m.Root(), "main.go")
	ctx := context.Background()

	start := time.Now()
	before := m.Check(ctx, Disk(file), false)
	t.Logf("first check %s: %+v", time.Since(start), before)
	if len(before.Problems) > 0 || !before.Checked("main.go") || len(before.Files["main.go"]) != 0 {
		t.Fatalf("before: %+v", before)
	}
	if err := os.WriteFile(file, []byte(goBroken), 0o644); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	after := m.Check(ctx, Disk(file), false)
	t.Logf("after check %s", time.Since(start))
	d := Compare(before, after)
	t.Logf("diff:\n%s", d.Text())
	if d.Errors() != 1 || !contains(d.Introduced, "main.go:6:14 error undefined: undefinedName") {
		t.Fatalf("introduced: %+v", d)
	}
	if err := os.WriteFile(file, []byte(goClean), 0o644); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	fixed := Compare(after, m.Check(ctx, Disk(file), false))
	t.Logf("fix check %s", time.Since(start))
	if len(fixed.Introduced) != 0 || !contains(fixed.Fixed, "undefined: undefinedName") {
		t.Fatalf("fixed: %+v", fixed)
	}
	start = time.Now()
	same := m.Check(ctx, Disk(file), false)
	t.Logf("unchanged check %s", time.Since(start))
	if len(same.Files["main.go"]) != 0 {
		t.Fatalf("same: %+v", same)
	}
}
