package review

import (
	"testing"

	"gatehouse/internal/patch"
	"gatehouse/internal/protocol"
)

// TestTurnDiffFromTheUndoPlan: a turn's undo plan becomes a diff in git's
// format: a file it changed, one it created (added), one it deleted, a
// binary one named without lines, one whose change is unknown left out;
// a finding on the created file anchors to its hunk.
func TestTurnDiffFromTheUndoPlan(t *testing.T) {
	diff := func(path, before, after string, added, deleted bool) string {
		d, _, _ := patch.UnifiedDiff(path, path, before, after, added, deleted)
		return d
	}
	plan := []protocol.UndoFile{
		{Path: "a.go", Operation: protocol.FileUpdate, TurnDiff: diff("a.go", "one\ntwo\n", "one\n2\n", false, false)},
		{Path: "new dir/n.txt", Operation: protocol.FileDelete, TurnDiff: diff("new dir/n.txt", "", "x\ny\n", true, false)},
		{Path: "gone.txt", Operation: protocol.FileAdd, TurnDiff: diff("gone.txt", "bye\n", "", false, true)},
		{Path: "logo.png", Operation: protocol.FileUpdate, Binary: true},
		{Path: "by-a-command.txt", State: protocol.UndoState("lost")},
	}
	d := TurnDiff(plan)
	want := []struct{ path, status string }{{"a.go", "M"}, {"new dir/n.txt", "A"}, {"gone.txt", "D"}, {"logo.png", "M"}}
	if len(d.Files) != len(want) {
		t.Fatalf("%d files:\n%s", len(d.Files), d.Raw)
	}
	for i, w := range want {
		if f := d.Files[i]; f.Path != w.path || f.Status != w.status {
			t.Errorf("file %d: %s %s, want %s %s", i, f.Path, f.Status, w.path, w.status)
		}
	}
	if !d.Files[3].Binary || len(d.Files[0].Hunks) != 1 || d.Files[1].Added != 2 {
		t.Fatalf("files %+v", d.Files)
	}
	got := Anchor([]Finding{{Severity: High, File: "new dir/n.txt", StartLine: 2, EndLine: 2, Title: "t", Explanation: "e"}}, d.Files)
	if len(got) != 1 || got[0].HunkID != d.Files[1].Hunks[0].ID {
		t.Fatalf("anchored %+v", got)
	}
}
