package files

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// TestSymlinkSwappedAfterPreview is issue 12, item 6: the user sees the
// diff of link/cfg.txt with link -> d1; while the dialog waits, link is
// repointed to d2. Approving must not write d2/cfg.txt, whose diff was never
// shown: the run fails with changed_since_preview and writes nothing.
func TestSymlinkSwappedAfterPreview(t *testing.T) {
	calls := []struct {
		name string
		tool func(*workspace.Workspace) tools.Gated
		args string
	}{
		{"write_file", func(ws *workspace.Workspace) tools.Gated { return NewWriteFile(ws) }, `{"path":"link/cfg.txt","content":"new\n"}`},
		{"apply_patch add", func(ws *workspace.Workspace) tools.Gated { return NewApplyPatch(ws) },
			`{"patch":"*** Begin Patch\n*** Add File: link/new.txt\n+new\n*** End Patch"}`},
		{"apply_patch update", func(ws *workspace.Workspace) tools.Gated { return NewApplyPatch(ws) },
			`{"patch":"*** Begin Patch\n*** Update File: link/cfg.txt\n@@\n-old\n+new\n*** End Patch"}`},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			root, _ := filepath.EvalSymlinks(t.TempDir())
			for _, d := range []string{"d1", "d2"} {
				os.Mkdir(filepath.Join(root, d), 0o755)
				// The same content in both: only where the path resolves differs.
				os.WriteFile(filepath.Join(root, d, "cfg.txt"), []byte("old\n"), 0o644)
			}
			link := filepath.Join(root, "link")
			if err := os.Symlink("d1", link); err != nil {
				t.Fatal(err)
			}
			ws, err := workspace.New(root, workspace.Options{ProtectedDirs: []string{}})
			if err != nil {
				t.Fatal(err)
			}
			tool := c.tool(ws)
			prep, res, ok := tool.Prepare(context.Background(), json.RawMessage(c.args))
			if !ok {
				t.Fatalf("prepare: %s", res.Output)
			}
			if err := os.Remove(link); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("d2", link); err != nil {
				t.Fatal(err)
			}
			res, err = prep.Run(context.Background(), protocol.Decision{Kind: protocol.DecisionOnce})
			var out map[string]any
			json.Unmarshal(res.Output, &out)
			if err != nil || !res.IsError || errCode(out) != tools.CodeChangedSincePreview {
				t.Fatalf("run after the swap: %v %s", err, res.Output)
			}
			for _, f := range []string{"d1/cfg.txt", "d2/cfg.txt"} {
				if b, _ := os.ReadFile(filepath.Join(root, f)); string(b) != "old\n" {
					t.Errorf("%s = %q, want it untouched", f, b)
				}
			}
			for _, f := range []string{"d1/new.txt", "d2/new.txt"} {
				if _, err := os.Stat(filepath.Join(root, f)); err == nil {
					t.Errorf("%s was created", f)
				}
			}
			// Pointed back, the call runs as shown.
			os.Remove(link)
			os.Symlink("d1", link)
			if res, err := prep.Run(context.Background(), protocol.Decision{Kind: protocol.DecisionOnce}); err != nil || res.IsError {
				t.Fatalf("run with the link restored: %v %s", err, res.Output)
			}
		})
	}
}
