package checkpoint

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/watch"
)

const aText = "one\ntwo\nthree\n4\n5\n6\n7\n8\n9\nseven\neight\nnine\n"

const twoFilePatch = "*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n three\n@@\n seven\n-eight\n+EIGHT\n*** Add File: new.txt\n+fresh\n*** End Patch\n"

func TestEachFileToolIsCheckpointedBeforeItsFirstChange(t *testing.T) {
	f := newFixture(t, 0)
	f.write("a.txt", aText, 0o640)
	f.write("w.txt", "old w\n", 0o755)
	f.call(1, "apply_patch", map[string]any{"patch": twoFilePatch})
	f.call(1, "write_file", map[string]any{"path": "w.txt", "content": "new w\n"})

	got := Fold(f.rec.Changes(), TurnUnit("s1", 1))
	if len(got) != 3 {
		t.Fatalf("turn 1 changed %d files, want 3: %+v", len(got), got)
	}
	for _, fc := range got {
		switch fc.Path {
		case "new.txt":
			if fc.Before.Exists {
				t.Errorf("new.txt existed before: %+v", fc.Before)
			}
		case "a.txt", "w.txt":
			b, err := f.store.Get(fc.Before.Hash)
			if err != nil {
				t.Fatalf("%s: prior content not kept: %v", fc.Path, err)
			}
			if fc.Path == "w.txt" && string(b) != "old w\n" {
				t.Errorf("w.txt prior = %q", b)
			}
		default:
			t.Errorf("unexpected file %s", fc.Path)
		}
	}
	// The store is outside the workspace: nothing new appeared there but
	// what the tools wrote.
	ents, _ := os.ReadDir(f.root)
	if len(ents) != 3 {
		t.Errorf("workspace holds %d entries, want 3", len(ents))
	}
}

func TestUndoRestoresBytesAndModeAndCanBeUndone(t *testing.T) {
	f := newFixture(t, 0)
	f.write("a.txt", aText, 0o640)
	f.write("w.txt", "old w\r\nno newline at end", 0o755)
	f.call(1, "apply_patch", map[string]any{"patch": twoFilePatch})
	f.call(1, "write_file", map[string]any{"path": "w.txt", "content": "new w\n"})
	turn := TurnUnit("s1", 1)

	out, _ := f.undo(turn, Selection{})
	if len(out.Restored) != 3 || len(out.Skipped) != 0 {
		t.Fatalf("undo = %+v", out)
	}
	if s, m, _ := f.read("w.txt"); s != "old w\r\nno newline at end" || m != 0o755 {
		t.Errorf("w.txt = %q %v", s, m)
	}
	if s, m, _ := f.read("a.txt"); !strings.Contains(s, "\ntwo\n") || m != 0o640 {
		t.Errorf("a.txt = %q %v", s, m)
	}
	if _, _, ok := f.read("new.txt"); ok {
		t.Error("new.txt still there")
	}

	// The undo is a unit of its own: undoing it brings the turn back.
	out2, _ := f.undo(Unit(out.Unit), Selection{})
	if len(out2.Restored) != 3 {
		t.Fatalf("undo of undo = %+v", out2)
	}
	if s, _, _ := f.read("w.txt"); s != "new w\n" {
		t.Errorf("w.txt after undo of undo = %q", s)
	}
	if s, _, ok := f.read("new.txt"); !ok || s != "fresh\n" {
		t.Errorf("new.txt after undo of undo = %q %v", s, ok)
	}
}

func TestUndoOneHunkAndOneFile(t *testing.T) {
	f := newFixture(t, 0)
	f.write("a.txt", aText, 0o644)
	f.call(1, "apply_patch", map[string]any{"patch": twoFilePatch})
	turn := TurnUnit("s1", 1)
	plan, err := f.undoer().Plan(f.rec.Changes(), turn)
	if err != nil {
		t.Fatal(err)
	}
	var a PlanFile
	for _, p := range plan {
		if p.Path == "a.txt" {
			a = p
		}
	}
	if len(a.Hunks) != 2 {
		t.Fatalf("a.txt undo hunks = %d, want 2:\n%s", len(a.Hunks), a.UndoDiff)
	}
	f.undo(turn, Selection{Files: []string{"a.txt"}, Hunks: []string{"a.txt#2"}})
	if s, _, _ := f.read("a.txt"); s != strings.Replace(aText, "two", "TWO", 1) {
		t.Errorf("a.txt after undoing hunk 2 = %q", s)
	}
	if _, _, ok := f.read("new.txt"); !ok {
		t.Error("new.txt was not selected but is gone")
	}
}

func TestAFileChangedSinceIsKeptUnlessChosen(t *testing.T) {
	f := newFixture(t, 0)
	f.write("w.txt", "v0\n", 0o644)
	f.call(1, "write_file", map[string]any{"path": "w.txt", "content": "v1\n"})
	f.call(2, "write_file", map[string]any{"path": "w.txt", "content": "v2\n"})
	turn := TurnUnit("s1", 1)
	plan, _ := f.undoer().Plan(f.rec.Changes(), turn)
	if len(plan) != 1 || plan[0].State != StateChangedSince || plan[0].SinceDiff == "" || plan[0].TurnDiff == "" {
		t.Fatalf("plan = %+v", plan)
	}
	out, _ := f.undo(turn, Selection{})
	if s, _, _ := f.read("w.txt"); s != "v2\n" || out.Skipped["w.txt"] == "" {
		t.Fatalf("without a choice: w.txt = %q, outcome %+v", s, out)
	}
	f.undo(turn, Selection{Choices: map[string]Choice{"w.txt": Restore}})
	if s, _, _ := f.read("w.txt"); s != "v0\n" {
		t.Errorf("with restore chosen: w.txt = %q", s)
	}
}

func TestBinaryFilesAreKeptLikeAnyOther(t *testing.T) {
	f := newFixture(t, 0)
	bin := []byte{0x89, 'P', 'N', 'G', 0, 1, 2, 0xff, '\n'}
	if err := os.WriteFile(filepath.Join(f.root, "img.bin"), bin, 0o600); err != nil {
		t.Fatal(err)
	}
	f.call(1, "write_file", map[string]any{"path": "img.bin", "content": "text now\n"})
	plan, _ := f.undoer().Plan(f.rec.Changes(), TurnUnit("s1", 1))
	if len(plan) != 1 || !plan[0].Binary || plan[0].State != StateRestore {
		t.Fatalf("plan = %+v", plan)
	}
	f.undo(TurnUnit("s1", 1), Selection{})
	b, _ := os.ReadFile(filepath.Join(f.root, "img.bin"))
	if !bytes.Equal(b, bin) {
		t.Errorf("img.bin = %v", b)
	}
}

func TestAFileTooLargeForTheStoreIsMarkedBeforeApproval(t *testing.T) {
	f := newFixture(t, 64)
	f.write("big.txt", strings.Repeat("x", 100)+"\n", 0o644)
	p := &tools.Prepared{}
	p.Files = append(p.Files, protoFile("big.txt"), protoFile("small.txt"))
	f.rec.Mark(p)
	if p.Files[0].Unrestorable == "" || p.Files[1].Unrestorable != "" {
		t.Fatalf("marks = %q, %q", p.Files[0].Unrestorable, p.Files[1].Unrestorable)
	}
	f.call(1, "write_file", map[string]any{"path": "big.txt", "content": "y\n"})
	out, _ := f.undo(TurnUnit("s1", 1), Selection{})
	if len(out.Restored) != 0 || !strings.Contains(out.Skipped["big.txt"], "cannot be restored") {
		t.Errorf("undo = %+v", out)
	}
}

func TestPruningDropsTheOldestSessionsFirst(t *testing.T) {
	st, err := Open(t.TempDir(), 100)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1000, 0)
	put := func(session, content string) string {
		h, err := st.Put([]byte(content))
		if err != nil {
			t.Fatal(err)
		}
		at = at.Add(time.Minute)
		if err := st.Append(session, Change{Unit: "u", Path: "f", Before: Version{Exists: true, Hash: h}, At: at}); err != nil {
			t.Fatal(err)
		}
		st.Release(h)
		return h
	}
	old := put("old", strings.Repeat("a", 40))
	mid := put("mid", strings.Repeat("b", 40))
	if again := put("mid", strings.Repeat("b", 40)); again != mid || st.Size() != 80 {
		t.Fatalf("the same bytes are kept once: size %d", st.Size())
	}
	now := put("now", strings.Repeat("c", 30))
	if err := st.Prune("now"); err != nil {
		t.Fatal(err)
	}
	if st.Has(old) || !st.Has(mid) || !st.Has(now) || st.Size() != 70 {
		t.Errorf("after pruning: old %v mid %v now %v size %d", st.Has(old), st.Has(mid), st.Has(now), st.Size())
	}
	if ids, _ := st.Sessions(); len(ids) != 2 || ids[0] != "mid" {
		t.Errorf("sessions after pruning = %v, want mid and now", ids)
	}
	put("now", strings.Repeat("d", 40))
	if err := st.Prune("now"); err != nil {
		t.Fatal(err)
	}
	if st.Has(mid) || !st.Has(now) || st.Size() != 70 {
		t.Errorf("mid kept %v; size %d", st.Has(mid), st.Size())
	}
	if _, err := st.Put(make([]byte, 101)); err != ErrTooLarge {
		t.Errorf("Put over the bound = %v", err)
	}
}

type fakeBaselines map[string]watch.ChangedFile

func (b fakeBaselines) Baseline(rel string) (watch.ChangedFile, []byte, bool, bool) {
	c, ok := b[rel]
	return c, nil, false, ok
}

func TestACommandsChangeWithoutAPriorIsMarkedNotRestorable(t *testing.T) {
	f := newFixture(t, 0)
	base := fakeBaselines{}
	f.rec.base = base
	f.rec.cmdUnit = TurnUnit("s1", 1)
	f.write("built.txt", "made by make\n", 0o644)
	f.write("gen.txt", "generated\n", 0o644)
	base["built.txt"] = watch.ChangedFile{Path: "built.txt", Status: "modified", Origin: watch.OriginShell, Origins: []watch.Origin{watch.OriginShell}}
	base["gen.txt"] = watch.ChangedFile{Path: "gen.txt", Status: "added", Origin: watch.OriginShell, Origins: []watch.Origin{watch.OriginShell}}
	f.rec.Observe([]watch.Change{{Path: "built.txt"}, {Path: "gen.txt"}})
	plan, _ := f.undoer().Plan(f.rec.Changes(), TurnUnit("s1", 1))
	if len(plan) != 2 {
		t.Fatalf("plan = %+v", plan)
	}
	for _, p := range plan {
		switch p.Path {
		case "built.txt":
			if p.State != StateLost || p.Note != NoteCommand {
				t.Errorf("built.txt: %s %q", p.State, p.Note)
			}
		case "gen.txt":
			if p.State != StateRestore {
				t.Errorf("gen.txt (created by the command): %s", p.State)
			}
		}
	}
	out, _ := f.undo(TurnUnit("s1", 1), Selection{})
	if out.Skipped["built.txt"] != NoteCommand {
		t.Errorf("skipped = %v", out.Skipped)
	}
	if _, _, ok := f.read("gen.txt"); ok {
		t.Error("gen.txt, created by the command, was not removed")
	}
}

// A command's change of a file the user edited since the log's last version
// of it is not restored to that (stale) version: it is marked; an undo's own
// write does not count as such an edit.
func TestACommandAfterAnOutsideEditIsNotRestoredToAStaleVersion(t *testing.T) {
	f := newFixture(t, 0)
	base := fakeBaselines{}
	f.rec.base = base
	f.write("a.txt", "v0\n", 0o644)
	f.write("b.txt", "b0\n", 0o644)
	f.call(1, "write_file", map[string]any{"path": "a.txt", "content": "v1\n"})
	f.call(1, "write_file", map[string]any{"path": "b.txt", "content": "b1\n"})
	// The user edits a.txt; undoing b.txt is Gatehouse's own write.
	f.write("a.txt", "mine\n", 0o644)
	base["a.txt"] = watch.ChangedFile{Path: "a.txt", Status: "modified", Origin: watch.OriginOutside}
	f.undo(TurnUnit("s1", 1), Selection{Files: []string{"b.txt"}})
	base["b.txt"] = watch.ChangedFile{Path: "b.txt", Status: "modified", Origin: watch.OriginOutside}
	f.rec.Observe([]watch.Change{{Path: "a.txt"}, {Path: "b.txt"}})
	// Then a command of turn 2 changes both.
	f.rec.cmdUnit = TurnUnit("s1", 2)
	f.write("a.txt", "cmd\n", 0o644)
	f.write("b.txt", "cmd b\n", 0o644)
	base["a.txt"] = watch.ChangedFile{Path: "a.txt", Status: "modified", Origin: watch.OriginShell}
	base["b.txt"] = watch.ChangedFile{Path: "b.txt", Status: "modified", Origin: watch.OriginShell}
	f.rec.Observe([]watch.Change{{Path: "a.txt"}, {Path: "b.txt"}})
	plan, _ := f.undoer().Plan(f.rec.Changes(), TurnUnit("s1", 2))
	states := map[string]protocol.UndoState{}
	for _, p := range plan {
		states[p.Path] = p.State
	}
	if states["a.txt"] != StateLost || states["b.txt"] != StateRestore {
		t.Fatalf("states = %v", states)
	}
	f.undo(TurnUnit("s1", 2), Selection{})
	if s, _, _ := f.read("a.txt"); s != "cmd\n" {
		t.Errorf("a.txt = %q", s)
	}
	if s, _, _ := f.read("b.txt"); s != "b0\n" {
		t.Errorf("b.txt = %q", s)
	}
}
