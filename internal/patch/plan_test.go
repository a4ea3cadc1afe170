package patch

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/workspace"
)

func newWS(t testing.TB, tree map[string][]byte) (string, *workspace.Workspace) {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, tree)
	ws, err := workspace.New(dir, workspace.Options{ProtectedDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	return ws.Root(), ws
}

func mustParse(t testing.TB, text string) *Patch {
	t.Helper()
	p, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const twoChunks = `*** Begin Patch
*** Update File: f.txt
@@
-a
+A
@@
 m
-z
+Z
*** End Patch`

func TestPreviewDoesNotWrite(t *testing.T) {
	dir, ws := newWS(t, map[string][]byte{"f.txt": []byte("a\nb\nc\nd\ne\nf\ng\nh\ni\nm\nz\n")})
	plan, err := Preview(ws, mustParse(t, twoChunks), nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f.txt")); string(b) != "a\nb\nc\nd\ne\nf\ng\nh\ni\nm\nz\n" {
		t.Fatalf("preview wrote: %q", b)
	}
	c := plan.Changes[0]
	if c.Operation != "update" || c.LinesAdded != 2 || c.LinesRemoved != 2 || c.NewContent != "A\nb\nc\nd\ne\nf\ng\nh\ni\nm\nZ\n" {
		t.Errorf("change = %+v", c)
	}
	wantDiff := "--- a/f.txt\n+++ b/f.txt\n@@ -1,4 +1,4 @@\n-a\n+A\n b\n c\n d\n@@ -8,4 +8,4 @@\n h\n i\n m\n-z\n+Z\n"
	if c.Diff != wantDiff {
		t.Errorf("diff =\n%s\nwant\n%s", c.Diff, wantDiff)
	}
	want := []Hunk{{ID: "f.txt#1", OldStart: 1, OldLines: 1, NewStart: 1, NewLines: 1, Selected: true},
		{ID: "f.txt#2", OldStart: 10, OldLines: 2, NewStart: 10, NewLines: 2, Selected: true}}
	if fmt.Sprint(c.Hunks) != fmt.Sprint(want) {
		t.Errorf("hunks = %+v", c.Hunks)
	}
	if plan.Hashes()[filepath.Join(dir, "f.txt")] != hash([]byte("a\nb\nc\nd\ne\nf\ng\nh\ni\nm\nz\n")) {
		t.Errorf("hashes = %v", plan.Hashes())
	}
}

func TestApplySelection(t *testing.T) {
	p := mustParse(t, twoChunks+"\n")
	p.Ops = append(p.Ops, Op{Kind: OpAdd, Path: "other.txt", Content: "o\n"})
	for _, tc := range []struct {
		sel  *Selection
		f    string
		more bool
	}{
		{&Selection{Hunks: []string{"f.txt#2"}}, "a\nm\nZ\n", false},
		{&Selection{Hunks: []string{"f.txt#1"}, Files: []string{"other.txt"}}, "A\nm\nz\n", true},
		{&Selection{Files: []string{"f.txt"}}, "A\nm\nZ\n", false},
		{nil, "A\nm\nZ\n", true},
	} {
		dir, ws := newWS(t, map[string][]byte{"f.txt": []byte("a\nm\nz\n")})
		full, err := Preview(ws, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		plan, err := Preview(ws, p, tc.sel)
		if err != nil {
			t.Fatal(err)
		}
		if err := plan.Apply(full); err != nil {
			t.Fatal(err)
		}
		got := readTree(t, dir)
		if string(got["f.txt"]) != tc.f {
			t.Errorf("%+v: f.txt = %q, want %q", tc.sel, got["f.txt"], tc.f)
		}
		if _, ok := got["other.txt"]; ok != tc.more {
			t.Errorf("%+v: other.txt written = %v", tc.sel, ok)
		}
	}
}

func TestChangedSincePreview(t *testing.T) {
	dir, ws := newWS(t, map[string][]byte{"f.txt": []byte("a\nm\nz\n")})
	p := mustParse(t, twoChunks)
	preview, err := Preview(ws, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Someone edits the file after the user saw the preview.
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("a\nm\nz\nnew\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	plan, err := Preview(ws, p, nil) // still applies to the new content
	if err != nil {
		t.Fatal(err)
	}
	err = plan.Apply(preview)
	var pe *Error
	if !errors.As(err, &pe) || pe.Code != CodeChanged || pe.Path != "f.txt" {
		t.Fatalf("Apply = %v, want changed_since_preview on f.txt", err)
	}
	// And a change between planning and applying is caught too.
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("a\nm\nz\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The plan's own read is checked by stat: a rewrite after planning is
	// refused even with the same bytes; a fresh plan with the preview's
	// hashes (same bytes) applies.
	if err := preview.Apply(nil); !errors.As(err, &pe) || pe.Code != CodeChanged {
		t.Fatalf("apply of a plan whose file was rewritten: %v", err)
	}
	plan, _ = Preview(ws, p, nil)
	if err := plan.Apply(preview); err != nil {
		t.Fatalf("apply after restoring content: %v", err)
	}
	plan, _ = Preview(ws, mustParse(t, "*** Begin Patch\n*** Add File: n.txt\n+x\n*** End Patch"), nil)
	os.WriteFile(filepath.Join(dir, "n.txt"), []byte("mine\n"), 0o644)
	if err := plan.Apply(nil); !errors.As(err, &pe) || pe.Code != CodeChanged {
		t.Fatalf("add over a file created after planning: %v", err)
	}
}

func TestApplyKeepsMode(t *testing.T) {
	dir, ws := newWS(t, map[string][]byte{"run.sh": []byte("echo a\n")})
	os.Chmod(filepath.Join(dir, "run.sh"), 0o751)
	if _, err := applyText(dir, "*** Begin Patch\n*** Update File: run.sh\n*** Move to: bin/run2.sh\n@@\n-echo a\n+echo b\n*** End Patch"); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, "bin/run2.sh"))
	if err != nil || fi.Mode().Perm() != 0o751 {
		t.Fatalf("mode after move = %v, %v", fi.Mode(), err)
	}
	_ = ws
}

// TestFailureLeavesTreeUnchanged is the atomicity property: for random
// trees and patches, making any one operation fail at planning, or any one
// write fail while applying, leaves the tree byte-identical; the unbroken
// patch applies.
func TestFailureLeavesTreeUnchanged(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for round := 0; round < 30; round++ {
		tree, ops := randomCase(rng)
		for bad := -1; bad < len(ops); bad++ {
			dir, ws := newWS(t, tree)
			text := renderOps(ops, bad)
			p, err := Parse(text)
			if err != nil {
				t.Fatalf("parse: %v\n%s", err, text)
			}
			plan, err := Preview(ws, p, nil)
			if bad < 0 {
				if err != nil {
					t.Fatalf("valid patch failed: %v\n%s", err, text)
				}
				n := len(plan.files)
				for k := 1; k <= n; k++ {
					d2, ws2 := newWS(t, tree)
					pl2, _ := Preview(ws2, p, nil)
					pl2.failAt = k
					if err := pl2.Apply(nil); err == nil && pl2.FilesChanged() >= k {
						t.Fatalf("injected failure at write %d not reported", k)
					}
					diffTrees(t, readTree(t, d2), tree)
				}
				if err := plan.Apply(nil); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if err == nil {
				t.Fatalf("broken op %d planned fine:\n%s", bad, text)
			}
			diffTrees(t, readTree(t, dir), tree)
		}
	}
}

type rop struct {
	kind, path, to string
	old, new       string
	file           string // the tree file of the same index, untouched by other ops
}

func randomCase(rng *rand.Rand) (map[string][]byte, []rop) {
	tree := map[string][]byte{}
	var ops []rop
	n := 2 + rng.Intn(5)
	for i := 0; i < n; i++ {
		p := fmt.Sprintf("d%d/f%d.txt", rng.Intn(3), i)
		var b strings.Builder
		for l := 0; l < 5+rng.Intn(20); l++ {
			fmt.Fprintf(&b, "line %d of %d\n", l, i)
		}
		tree[p] = []byte(b.String())
		switch rng.Intn(4) {
		case 0:
			ops = append(ops, rop{kind: "delete", path: p})
		case 1:
			ops = append(ops, rop{kind: "update", path: p, old: fmt.Sprintf("line 2 of %d", i), new: "changed"})
		case 2:
			ops = append(ops, rop{kind: "update", path: p, to: fmt.Sprintf("new/m%d.txt", i), old: fmt.Sprintf("line 3 of %d", i), new: "moved"})
		default:
			ops = append(ops, rop{kind: "add", path: fmt.Sprintf("added/a%d.txt", i), new: "hello", file: p})
		}
	}
	return tree, ops
}

// renderOps writes ops as a patch; the op at index bad is made to fail.
func renderOps(ops []rop, bad int) string {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	for i, o := range ops {
		switch o.kind {
		case "delete":
			p := o.path
			if i == bad {
				p += ".missing"
			}
			b.WriteString("*** Delete File: " + p + "\n")
		case "add":
			p := o.path
			if i == bad {
				p = "../" + o.file // outside the workspace
			}
			b.WriteString("*** Add File: " + p + "\n+" + o.new + "\n")
		case "update":
			b.WriteString("*** Update File: " + o.path + "\n")
			if o.to != "" {
				b.WriteString("*** Move to: " + o.to + "\n")
			}
			old := o.old
			if i == bad {
				old = "not in the file"
			}
			b.WriteString("@@\n-" + old + "\n+" + o.new + "\n")
		}
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

func TestPlanWrite(t *testing.T) {
	dir, ws := newWS(t, map[string][]byte{"f": []byte("x\n")})
	cases := []struct {
		path, content, mode string
		want, code          string
	}{
		{"f", "y\n", WriteCreate, "", CodeAlreadyExists},
		{"f", "y\n", WriteAppend, "x\ny\n", ""},
		{"f", "z\n", WriteOverwrite, "z\n", ""},
		{"new/g", "g\n", WriteCreate, "g\n", ""},
		{"f", "", "bogus", "", CodeInvalid},
		{"new", "d", WriteOverwrite, "", CodeIsDirectory},
	}
	for _, c := range cases {
		plan, err := PlanWrite(ws, c.path, c.content, c.mode)
		if c.code != "" {
			var pe *Error
			if !errors.As(err, &pe) || pe.Code != c.code {
				t.Errorf("PlanWrite(%s, %s) = %v, want %s", c.path, c.mode, err, c.code)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := plan.Apply(nil); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, c.path)); string(b) != c.want {
			t.Errorf("PlanWrite(%s, %s): %q, want %q", c.path, c.mode, b, c.want)
		}
	}
}

// Updates worked out ahead, concurrently (prefetch), still fail in patch
// order, and a file reached by two spellings is updated in turn.
func TestUpdatesAheadKeepPatchOrder(t *testing.T) {
	tree := map[string][]byte{}
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	for i := 0; i < 12; i++ {
		p := fmt.Sprintf("d%d/f%d.txt", i%3, i)
		tree[p] = []byte(fmt.Sprintf("a%d\nb%d\n", i, i))
		old := fmt.Sprintf("a%d", i)
		if i == 5 || i == 9 {
			old = "not in the file"
		}
		fmt.Fprintf(&b, "*** Update File: %s\n@@\n-%s\n+A%d\n", p, old, i)
	}
	b.WriteString("*** End Patch\n")
	_, ws := newWS(t, tree)
	_, err := Preview(ws, mustParse(t, b.String()), nil)
	var pe *Error
	if !errors.As(err, &pe) || pe.Code != CodeContextNotFound || pe.Path != "d2/f5.txt" {
		t.Fatalf("err = %v, want context not found in d2/f5.txt", err)
	}

	dir, ws := newWS(t, map[string][]byte{"x.txt": []byte("one\ntwo\n"), "y.txt": []byte("y\n")})
	plan, err := Preview(ws, mustParse(t, "*** Begin Patch\n*** Update File: x.txt\n@@\n-one\n+ONE\n*** Update File: y.txt\n@@\n-y\n+Y\n*** Update File: ./x.txt\n@@\n ONE\n-two\n+TWO\n*** End Patch\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Apply(nil); err != nil {
		t.Fatal(err)
	}
	diffTrees(t, readTree(t, dir), map[string][]byte{"x.txt": []byte("ONE\nTWO\n"), "y.txt": []byte("Y\n")})
}

// Lines copied from read_file with their numbers apply when the numbers
// name the very lines found (the numbers are dropped, also from added
// lines that carry one); with numbers that do not match, the patch fails
// and the error says why. A file whose lines really start with digits and
// a tab is patched as written.
func TestNumberedLinesFromReadFile(t *testing.T) {
	dir, _ := newWS(t, map[string][]byte{"f.go": []byte("package f\n\nfunc A() {}\n\nfunc C() {}\n")})
	copied := "*** Begin Patch\n*** Update File: f.go\n@@\n     2\t\n-     3\tfunc A() {}\n+     3\tfunc B() {}\n+func B2() {}\n      4\t\n*** End Patch\n"
	if _, err := applyText(dir, copied); err != nil {
		t.Fatalf("numbered patch: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f.go")); string(b) != "package f\n\nfunc B() {}\nfunc B2() {}\n\nfunc C() {}\n" {
		t.Errorf("file = %q", b)
	}

	wrong := "*** Begin Patch\n*** Update File: f.go\n@@\n-    40\tfunc C() {}\n+    40\tfunc D() {}\n*** End Patch\n"
	_, err := applyText(dir, wrong)
	var pe *Error
	if !errors.As(err, &pe) || pe.Code != CodeContextNotFound || !strings.Contains(pe.Msg, "read_file's line numbers") {
		t.Fatalf("numbers that name other lines: %v", err)
	}

	// A miss whose lines merely start with digits is not blamed on numbers.
	_, err = applyText(dir, "*** Begin Patch\n*** Update File: f.go\n@@\n-42 things\n+43\n*** End Patch\n")
	if !errors.As(err, &pe) || strings.Contains(pe.Msg, "line numbers") {
		t.Errorf("digits without a tab: %v", err)
	}

	// A TSV whose lines start with numbers and tabs: matched as written first.
	tsv, _ := newWS(t, map[string][]byte{"t.tsv": []byte("     1\ta\n     2\tb\n")})
	if _, err := applyText(tsv, "*** Begin Patch\n*** Update File: t.tsv\n@@\n-     2\tb\n+     2\tB\n*** End Patch\n"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(tsv, "t.tsv")); string(b) != "     1\ta\n     2\tB\n" {
		t.Errorf("tsv = %q", b)
	}
}
