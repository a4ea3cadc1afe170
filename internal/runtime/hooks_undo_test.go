package runtime

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/checkpoint"
	"gatehouse/internal/hooks"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// A formatter hook's writes are changes like a command's: a PostToolUse
// hook that rewrites the file the model wrote (and writes one more) is in
// the turn's changes, and undoing the turn restores the file as it was
// before the turn and removes the one the hook made.
func TestAFormatterHooksWritesAreUndoneWithTheTurn(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "write_file", `{"path":"a.txt","content":"agent"}`), text("written"),
	}}, approval.Auto, map[string]string{"a.txt": "before"}, func(o *Options) {
		withStore(t, 0)(o)
		hs, err := hooks.Parse([]byte(`{"hooks": {"PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command",
			"command": "printf formatted > \"$CLAUDE_PROJECT_DIR/a.txt\" && printf log > \"$CLAUDE_PROJECT_DIR/fmt.log\""}]}]}}`), "user")
		if err != nil {
			t.Fatal(err)
		}
		o.Hooks = &hooks.Runner{Hooks: hs, ProjectDir: o.Workspace.Root()}
	})
	<-h.sess.files.W.Ready()
	if got := h.run("write"); got != protocol.StopCompleted {
		t.Fatalf("turn: %s", got)
	}
	if b, _ := os.ReadFile(filepath.Join(h.root, "a.txt")); string(b) != "formatted" {
		t.Fatalf("the hook did not run: a.txt = %q", b)
	}
	var paths []string
	deadline := time.Now().Add(30 * time.Second)
	for !slices.Contains(paths, "fmt.log") {
		if time.Now().After(deadline) {
			t.Fatalf("the hook's writes are not in the turn's changes: %v", paths)
		}
		time.Sleep(10 * time.Millisecond)
		units, _ := h.sess.UndoUnits()
		paths = nil
		if len(units) == 1 {
			plan, _ := h.sess.UndoPlan(units[0])
			for _, f := range plan {
				paths = append(paths, f.Path)
			}
		}
	}
	units, _ := h.sess.UndoUnits()
	if _, err := h.sess.Undo(units[0], checkpoint.Selection{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(h.root, "a.txt")); string(b) != "before" {
		t.Errorf("after undo a.txt = %q, want the content before the turn", b)
	}
	if _, err := os.Stat(filepath.Join(h.root, "fmt.log")); !os.IsNotExist(err) {
		t.Errorf("the file the hook made is still there: %v", err)
	}
}
