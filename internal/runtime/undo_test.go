package runtime

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/checkpoint"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

func withStore(t *testing.T, limit int64) func(*Options) {
	st, err := checkpoint.Open(filepath.Join(t.TempDir(), "checkpoints"), limit)
	if err != nil {
		t.Fatal(err)
	}
	return func(o *Options) { o.Checkpoints = st }
}

// A turn's write is undone; the next request tells the model which file the
// user reverted, and the checkpoint stage sits next to the executor.
func TestUndoOfATurnIsToldToTheModel(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "write_file", `{"path":"a.txt","content":"agent"}`), text("written"), text("ok"),
	}}, approval.Auto, map[string]string{"a.txt": "before"}, withStore(t, 0))
	if got := h.sess.Stages(); !slices.Equal(got, []string{StageOutputCap, StagePlan, StageApproval, StageInstructions, StageRecorder, StageCheckpoint}) {
		t.Errorf("stages = %v", got)
	}
	if got := h.run("write"); got != protocol.StopCompleted {
		t.Fatalf("turn: %s", got)
	}
	units, err := h.sess.UndoUnits()
	if err != nil || len(units) != 1 {
		t.Fatalf("units = %v, %v", units, err)
	}
	plan, err := h.sess.UndoPlan(units[0])
	if err != nil || len(plan) != 1 || plan[0].State != checkpoint.StateRestore || !strings.Contains(plan[0].UndoDiff, "+before") {
		t.Fatalf("plan = %+v, %v", plan, err)
	}
	out, err := h.sess.Undo(units[0], checkpoint.Selection{})
	if err != nil || len(out.Restored) != 1 {
		t.Fatalf("undo = %+v, %v", out, err)
	}
	if b, _ := os.ReadFile(filepath.Join(h.root, "a.txt")); string(b) != "before" {
		t.Errorf("a.txt = %q", b)
	}
	// The undo is in the transcript, and can itself be undone.
	items := h.sess.Snapshot().Transcript
	last := items[len(items)-1]
	if last.Kind != protocol.ItemUndo || last.Undo == nil || last.Undo.Of != string(units[0]) || last.ID != out.Unit {
		t.Fatalf("last transcript item = %+v", last)
	}
	again, err := h.sess.Undo(checkpoint.Unit(out.Unit), checkpoint.Selection{})
	if err != nil || len(again.Restored) != 1 {
		t.Fatalf("undo of the undo = %+v, %v", again, err)
	}
	if b, _ := os.ReadFile(filepath.Join(h.root, "a.txt")); string(b) != "agent" {
		t.Errorf("after undoing the undo a.txt = %q", b)
	}
	if _, err := h.sess.Undo(units[0], checkpoint.Selection{}); err != nil {
		t.Fatal(err)
	}
	h.run("next")
	reqs := h.srv.Requests()
	body := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(body, "the user reverted these files") || !strings.Contains(body, "a.txt") {
		t.Errorf("the next request does not name the reverted file: %.400s", body)
	}
}

// The dialog says, before approval, that a file too large for the store
// cannot be restored.
func TestTheDialogSaysAFileCannotBeRestored(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "write_file", `{"path":"big.txt","content":"small"}`), text("done"),
	}}, approval.Manual, map[string]string{"big.txt": strings.Repeat("x", 64)}, withStore(t, 32))
	done := make(chan protocol.StopReason)
	go func() { done <- h.run("write") }()
	req := h.waitApproval()
	if len(req.Preview.Files) != 1 || req.Preview.Files[0].Unrestorable == "" {
		t.Errorf("preview files = %+v", req.Preview.Files)
	}
	// While the turn runs, undo waits for it.
	if _, err := h.sess.Undo("any", checkpoint.Selection{}); !errors.Is(err, ErrTurnRunning) {
		t.Errorf("undo during a turn: %v", err)
	}
	if err := h.gui().Resolve(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce}); err != nil {
		t.Fatal(err)
	}
	<-done
}

// A command's changes, seen by the watcher: a file it created and a small
// file whose content the watcher kept are restored; a large file nobody
// kept is marked, never skipped silently.
func TestACommandsChangesAreRestoredWhereAPriorIsKnown(t *testing.T) {
	big := strings.Repeat("0123456789abcdef", 32<<10) // 512 KiB: over the watcher's cache per file
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "bash", `{"action":"exec","command":"printf new > gen.txt && printf more >> small.txt && printf more >> big.txt"}`),
		text("ran"),
	}}, approval.Auto, map[string]string{"small.txt": "small\n", "big.txt": big}, withStore(t, 0))
	<-h.sess.files.W.Ready()
	if got := h.run("run it"); got != protocol.StopCompleted {
		t.Fatalf("turn: %s", got)
	}
	var plan []protocol.UndoFile
	deadline := time.Now().Add(30 * time.Second)
	for len(plan) < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("the command's changes were not all recorded: %+v", plan)
		}
		time.Sleep(10 * time.Millisecond)
		units, _ := h.sess.UndoUnits()
		if len(units) == 1 {
			plan, _ = h.sess.UndoPlan(units[0])
		}
	}
	states := map[string]protocol.UndoState{}
	for _, f := range plan {
		states[f.Path] = f.State
		if f.Path == "big.txt" && f.Note != checkpoint.NoteCommand {
			t.Errorf("big.txt note = %q", f.Note)
		}
	}
	want := map[string]protocol.UndoState{"gen.txt": protocol.UndoRestore, "small.txt": protocol.UndoRestore, "big.txt": protocol.UndoNotRestorable}
	if !maps.Equal(states, want) {
		t.Fatalf("states = %v, want %v", states, want)
	}
	units, _ := h.sess.UndoUnits()
	out, err := h.sess.Undo(units[0], checkpoint.Selection{})
	if err != nil || len(out.Restored) != 2 || out.Skipped["big.txt"] != checkpoint.NoteCommand {
		t.Fatalf("undo = %+v, %v", out, err)
	}
	if b, _ := os.ReadFile(filepath.Join(h.root, "small.txt")); string(b) != "small\n" {
		t.Errorf("small.txt = %q", b)
	}
	if _, err := os.Stat(filepath.Join(h.root, "gen.txt")); !os.IsNotExist(err) {
		t.Errorf("gen.txt is still there: %v", err)
	}
}
