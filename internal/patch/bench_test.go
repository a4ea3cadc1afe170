package patch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/patch/patchgen"
	"gatehouse/internal/workspace"
)

// benchApply times parse + preview + apply of c, on a fresh copy of its tree
// each iteration (the copy is not timed).
func benchApply(b *testing.B, c patchgen.Case) {
	var size int64
	for _, f := range c.Files {
		size += int64(len(f))
	}
	b.SetBytes(size + int64(len(c.Patch)))
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		dir := b.TempDir()
		writeTree(b, dir, c.Files)
		ws, err := workspace.New(dir, workspace.Options{ProtectedDirs: []string{}})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		p, err := Parse(c.Patch)
		if err != nil {
			b.Fatal(err)
		}
		plan, err := Preview(ws, p, nil)
		if err != nil {
			b.Fatal(err)
		}
		if err := plan.Apply(nil); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		os.RemoveAll(filepath.Join(dir))
		b.StartTimer()
	}
}

func BenchmarkApplyBigFile(b *testing.B)   { benchApply(b, patchgen.BigFile(10000, 200)) }
func BenchmarkApplyBigFile2x(b *testing.B) { benchApply(b, patchgen.BigFile(20000, 400)) }
func BenchmarkApply200Files(b *testing.B)  { benchApply(b, patchgen.ManyFiles(200)) }
func BenchmarkApply400Files(b *testing.B)  { benchApply(b, patchgen.ManyFiles(400)) }

func TestGeneratedCasesApply(t *testing.T) {
	for _, c := range []patchgen.Case{patchgen.BigFile(1000, 20), patchgen.ManyFiles(5)} {
		dir := t.TempDir()
		writeTree(t, dir, c.Files)
		plan, err := applyText(dir, c.Patch)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		added := 0
		for _, ch := range plan.Changes {
			added += ch.LinesAdded
		}
		if want := strings.Count(c.Patch, "\n+"); added != want || want == 0 {
			t.Fatalf("%s: %d lines added, want %d", c.Name, added, want)
		}
	}
}
