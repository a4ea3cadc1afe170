package files

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// RunText gives what Run gives with the same patch in its arguments, for a
// patch that applies and one that does not.
func TestRunTextIsRun(t *testing.T) {
	for _, text := range []string{
		"*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+1\n*** Add File: d/b.txt\n+b\n*** End Patch\n",
		"*** Begin Patch\n*** Update File: a.txt\n@@\n-missing\n+1\n*** End Patch\n",
	} {
		var outs [2]string
		var trees [2]string
		for i := range outs {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			ws, err := workspace.New(dir, workspace.Options{ProtectedDirs: []string{}})
			if err != nil {
				t.Fatal(err)
			}
			tool := NewApplyPatch(ws)
			var res tools.Result
			if i == 0 {
				raw, _ := json.Marshal(map[string]string{"patch": text})
				res, err = tool.Run(context.Background(), raw)
			} else {
				res, err = tool.RunText(context.Background(), text)
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(filepath.Join(dir, "a.txt"))
			outs[i], trees[i] = string(res.Output), string(b)
		}
		if outs[0] != outs[1] || trees[0] != trees[1] {
			t.Errorf("Run: %s, a.txt %q\nRunText: %s, a.txt %q", outs[0], trees[0], outs[1], trees[1])
		}
	}
}
