package checkpoint

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/files"
	"gatehouse/internal/workspace"
)

type fixture struct {
	t     *testing.T
	root  string
	ws    *workspace.Workspace
	store *Store
	rec   *Recorder
	tools map[string]tools.Tool
}

func newFixture(t *testing.T, limit int64) *fixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.New(root, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := Open(filepath.Join(t.TempDir(), "checkpoints"), limit)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := NewRecorder(st, "s1", ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, root: root, ws: ws, store: st, rec: rec, tools: map[string]tools.Tool{}}
	for _, tl := range files.All(ws) {
		f.tools[tl.Spec().Name] = tl
	}
	return f
}

func (f *fixture) write(rel, content string, mode os.FileMode) {
	f.t.Helper()
	p := filepath.Join(f.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		f.t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		f.t.Fatal(err)
	}
}

func (f *fixture) read(rel string) (string, os.FileMode, bool) {
	f.t.Helper()
	p := filepath.Join(f.root, filepath.FromSlash(rel))
	b, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return "", 0, false
	}
	if err != nil {
		f.t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	return string(b), fi.Mode().Perm(), true
}

// call runs a tool call of turn n through the recorder, as the executor
// runs it in auto mode.
func (f *fixture) call(turn int, tool string, args map[string]any) tools.Result {
	f.t.Helper()
	raw, _ := json.Marshal(args)
	ctx := tools.WithTurn(context.Background(), string(TurnUnit("s1", turn)))
	res, err := tools.Chain(f.tools[tool], tools.Plan(f.rec.Mark), f.rec.Middleware)(ctx, tools.Call{ID: tool + "-call", Name: tool, Args: raw})
	if err != nil {
		f.t.Fatal(err)
	}
	if res.IsError {
		f.t.Fatalf("%s failed: %s", tool, res.Output)
	}
	return res
}

func (f *fixture) undoer() Undoer { return Undoer{Store: f.store, Session: "s1", WS: f.ws} }

func (f *fixture) undo(unit Unit, sel Selection) (Outcome, []PlanFile) {
	f.t.Helper()
	out, plan, err := f.undoer().Apply(f.rec.Changes(), unit, sel, f.rec.Append)
	if err != nil {
		f.t.Fatal(err)
	}
	return out, plan
}

func protoFile(path string) protocol.FilePreview {
	return protocol.FilePreview{Path: path, Operation: protocol.FileUpdate}
}
