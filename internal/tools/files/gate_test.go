package files

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

func prepare(t *testing.T, g tools.Gated, args any) *tools.Prepared {
	t.Helper()
	raw, _ := json.Marshal(args)
	p, r, ok := g.Prepare(context.Background(), raw)
	if !ok {
		t.Fatalf("prepare %s: %s", raw, r.Output)
	}
	return p
}

// TestPreviewShowsResolvedPaths: a path through a symlinked folder or with
// ".." shows where the file really is; a plain path shows nothing more.
func TestPreviewShowsResolvedPaths(t *testing.T) {
	base, ws := fixture(t)
	if err := os.Symlink("src", filepath.Join(base, "ws/srclink")); err != nil {
		t.Fatal(err)
	}
	wf := NewWriteFile(ws)
	for _, c := range []struct{ path, want string }{
		{"srclink/a.txt", "src/a.txt"},
		{"./build/../src/a.txt", "src/a.txt"},
		{"link.txt", "src/a.txt"},
		{filepath.Join(base, "ws/src/a.txt"), "src/a.txt"},
		{"src/a.txt", ""},
		{"./src/a.txt", ""},
	} {
		p := prepare(t, wf, map[string]any{"path": c.path, "content": "x\n"})
		if got := p.Files[0].ResolvedPath; got != c.want {
			t.Errorf("write_file %s: resolved %q, want %q", c.path, got, c.want)
		}
	}
	ap := NewApplyPatch(ws)
	p := prepare(t, ap, map[string]any{"patch": "*** Begin Patch\n*** Update File: srclink/a.txt\n*** Move to: x/../moved.txt\n@@\n-beta\n+BETA\n*** End Patch\n"})
	if f := p.Files[0]; f.ResolvedFrom != "src/a.txt" || f.ResolvedPath != "moved.txt" || f.Path != "x/../moved.txt" {
		t.Errorf("move: %+v", f)
	}
}

// TestPreviewSaysWhatItReplaces: write_file onto an existing file and the
// Codex-style replacing patch operations are marked, and diff against the
// old content.
func TestPreviewSaysWhatItReplaces(t *testing.T) {
	_, ws := fixture(t)
	p := prepare(t, NewWriteFile(ws), map[string]any{"path": "src/a.txt", "content": "new\n"})
	if f := p.Files[0]; !f.Replaces || !strings.Contains(f.Diff, "-alpha\n-beta\n-gamma\n+new\n") || f.OldContent != "alpha\nbeta\ngamma\n" {
		t.Errorf("write_file over a.txt: %+v", f)
	}
	if f := prepare(t, NewWriteFile(ws), map[string]any{"path": "src/new.txt", "content": "n\n"}).Files[0]; f.Replaces {
		t.Errorf("a new file replaces nothing: %+v", f)
	}
	p = prepare(t, NewApplyPatch(ws), map[string]any{"patch": "*** Begin Patch\n*** Add File: src/a.txt\n+fresh\n" +
		"*** Update File: src/b.go\n*** Move to: debug.log\n@@\n-package b\n+package c\n*** End Patch\n"})
	add, move := p.Files[0], p.Files[1]
	if !add.Replaces || add.Operation != protocol.FileAdd || !strings.Contains(add.Diff, "--- a/src/a.txt") || add.Removed != 3 {
		t.Errorf("add over a.txt: %+v", add)
	}
	if !move.Replaces || !strings.Contains(move.ReplacedDiff, "-needle in log\n") || !strings.Contains(move.Diff, "+package c") {
		t.Errorf("move onto debug.log: %+v", move)
	}
	res, err := p.Run(context.Background(), protocol.Decision{Kind: protocol.DecisionOnce})
	if err != nil || res.IsError {
		t.Fatalf("apply: %v %s", err, res.Output)
	}
	if !strings.Contains(string(res.Output), `"replaced":true`) {
		t.Errorf("the result does not tell the model it replaced files: %s", res.Output)
	}
	if b, _ := os.ReadFile(filepath.Join(ws.Root(), "debug.log")); string(b) != "package c\n// needle here\n" {
		t.Errorf("debug.log = %q", b)
	}
}
