package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/checkpoint"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/files"
	"gatehouse/internal/workspace"
)

// undoFixture records one turn's write_file in a store, as a session would.
func undoFixture(t *testing.T) (root, dataDir string) {
	t.Helper()
	root, _ = filepath.EvalSymlinks(t.TempDir())
	dataDir = t.TempDir()
	storeDir := checkpoint.Dir(dataDir)
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("before\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.New(root, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	st, err := checkpoint.Open(storeDir, 0)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := checkpoint.NewRecorder(st, "sess", ws, nil)
	if err != nil {
		t.Fatal(err)
	}
	var wf tools.Tool
	for _, tl := range files.All(ws) {
		if tl.Spec().Name == "write_file" {
			wf = tl
		}
	}
	ctx := tools.WithTurn(context.Background(), string(checkpoint.TurnUnit("sess", 1)))
	res, err := tools.Chain(wf, tools.Plan(rec.Mark), rec.Middleware)(ctx, tools.Call{ID: "c1", Name: "write_file", Args: []byte(`{"path":"a.txt","content":"agent\n"}`)})
	if err != nil || res.IsError {
		t.Fatalf("write_file: %v %s", err, res.Output)
	}
	log, err := session.NewStore(dataDir).Create(root, "sess")
	if err != nil {
		t.Fatal(err)
	}
	if err := log.AppendItem(protocol.TranscriptItem{Kind: protocol.ItemUser, ID: "sess-t1", TurnID: "sess-t1", Text: "write"}); err != nil {
		t.Fatal(err)
	}
	log.Close()
	return root, dataDir
}

func TestUndoDryRunPrintsTheDiffAndChangesNothing(t *testing.T) {
	root, dataDir := undoFixture(t)
	var out, errb bytes.Buffer
	if code := Undo([]string{"--workspace", root, "--dry-run"}, dataDir, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "-agent") || !strings.Contains(out.String(), "+before") {
		t.Errorf("diff printed:\n%s", out.String())
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "agent\n" {
		t.Errorf("dry run changed a.txt: %q", b)
	}
	out.Reset()
	if code := Undo([]string{"--workspace", root, "--turn", "1"}, dataDir, &out, &errb); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "before\n" {
		t.Errorf("undo left a.txt: %q", b)
	}
	// The undo is in the session's log, as the window's would be.
	loaded, err := session.NewStore(dataDir).Load(root, "sess")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(loaded.Items); n == 0 || loaded.Items[n-1].Kind != protocol.ItemUndo || loaded.Items[n-1].Undo.Restored[0] != "a.txt" {
		t.Errorf("log items = %+v", loaded.Items)
	}
}

func TestUndoExitCodes(t *testing.T) {
	root, dataDir := undoFixture(t)
	var out, errb bytes.Buffer
	for _, args := range [][]string{{}, {"--workspace", root, "--conflicts", "maybe"}, {"--workspace", root, "extra"}} {
		if code := Undo(args, dataDir, &out, &errb); code != ExitUsage {
			t.Errorf("%v: exit %d, want %d", args, code, ExitUsage)
		}
	}
	// Changed since the turn: kept by default, exit 1, nothing written.
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("mine\n"), 0o644)
	if code := Undo([]string{"--workspace", root}, dataDir, &out, &errb); code != ExitError {
		t.Errorf("changed since: exit %d", code)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "mine\n" {
		t.Errorf("a.txt overwritten without the choice: %q", b)
	}
	if code := Undo([]string{"--workspace", root, "--conflicts", "restore"}, dataDir, &out, &errb); code != 0 {
		t.Errorf("--conflicts restore: exit %d: %s", code, errb.String())
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "before\n" {
		t.Errorf("a.txt = %q", b)
	}
}
