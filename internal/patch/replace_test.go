package patch

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReplacesExistingFile: an Add File onto a file that exists, a Move to
// onto one, and write_file overwrite say they replace it, and their diffs
// go from what the file held; an add of a new file and an append do not.
func TestReplacesExistingFile(t *testing.T) {
	dir, ws := newWS(t, map[string][]byte{"a.txt": []byte("one\ntwo\n"), "src": []byte("s\n"), "dst": []byte("old dst\n")})
	if err := os.Chmod(filepath.Join(dir, "a.txt"), 0o600); err != nil {
		t.Fatal(err)
	}
	p := mustParse(t, "*** Begin Patch\n*** Add File: a.txt\n+fresh\n*** Add File: new.txt\n+n\n"+
		"*** Update File: src\n*** Move to: dst\n@@\n-s\n+S\n*** End Patch\n")
	plan, err := Preview(ws, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	add, fresh, move := plan.Changes[0], plan.Changes[1], plan.Changes[2]
	if !add.Replaces || add.OldContent != "one\ntwo\n" ||
		!strings.Contains(add.Diff, "--- a/a.txt\n+++ b/a.txt\n") || !strings.Contains(add.Diff, "-one\n-two\n+fresh\n") || add.LinesRemoved != 2 {
		t.Errorf("add over a.txt: %+v", add)
	}
	if fresh.Replaces || !strings.HasPrefix(fresh.Diff, "--- /dev/null\n") {
		t.Errorf("add of a new file: %+v", fresh)
	}
	if !move.Replaces || !strings.Contains(move.Diff, "-s\n+S\n") || !strings.Contains(move.ReplacedDiff, "-old dst\n+S\n") {
		t.Errorf("move onto dst: %+v", move)
	}
	if err := plan.Apply(plan); err != nil {
		t.Fatal(err)
	}
	diffTrees(t, readTree(t, dir), map[string][]byte{"a.txt": []byte("fresh\n"), "new.txt": []byte("n\n"), "dst": []byte("S\n")})
	if fi, _ := os.Stat(filepath.Join(dir, "a.txt")); fi.Mode().Perm() != 0o600 {
		t.Errorf("the replaced file's mode was not kept: %v", fi.Mode())
	}

	for _, c := range []struct {
		mode string
		want bool
	}{{WriteOverwrite, true}, {WriteAppend, false}} {
		wp, err := PlanWrite(ws, "a.txt", "w\n", c.mode)
		if err != nil {
			t.Fatal(err)
		}
		if got := wp.Changes[0]; got.Replaces != c.want || !strings.Contains(got.Diff, "--- a/a.txt") {
			t.Errorf("write_file %s: %+v", c.mode, got)
		}
	}
	if wp, _ := PlanWrite(ws, "other.txt", "w\n", WriteOverwrite); wp.Changes[0].Replaces {
		t.Error("writing a new file replaces nothing")
	}
}

// TestScenarioGeneratorAgrees: testdata/gen_scenarios.py writes exactly the
// checked-in scenario folders.
func TestScenarioGeneratorAgrees(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	dir := t.TempDir()
	src, err := os.ReadFile("testdata/gen_scenarios.py")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "gen.py"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "gen.py")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	diffTrees(t, readTree(t, filepath.Join(dir, "scenarios")), readTree(t, "testdata/scenarios"))
}
