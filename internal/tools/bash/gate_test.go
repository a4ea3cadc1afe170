//go:build linux

package bash

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// linkDirs resolves folders with their symlinks followed, as the
// workspace does.
type linkDirs struct{ testDirs }

func (d linkDirs) ResolveDir(dir string) (string, error) {
	p, err := d.testDirs.ResolveDir(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(p)
}

// TestCwdSwappedAfterPreview: the dialog showed the command running in
// link -> d1; link is repointed to d2 while it waits; approving runs
// nothing and says changed_since_preview.
func TestCwdSwappedAfterPreview(t *testing.T) {
	tool, root := newTool(t, proc.Options{})
	root, _ = filepath.EvalSymlinks(root)
	tool.c.Dirs = linkDirs{testDirs{root}}
	for _, d := range []string{"d1", "d2"} {
		os.Mkdir(filepath.Join(root, d), 0o755)
	}
	link := filepath.Join(root, "link")
	os.Symlink("d1", link)
	for _, action := range []string{"exec", "start"} {
		os.Remove(link)
		os.Symlink("d1", link)
		raw, _ := json.Marshal(map[string]string{"action": action, "command": "touch ran", "cwd": "link"})
		prep, res, ok := tool.Prepare(context.Background(), raw)
		if !ok || prep.Command.Cwd != filepath.Join(root, "d1") {
			t.Fatalf("%s prepare: %s %+v", action, res.Output, prep)
		}
		os.Remove(link)
		os.Symlink("d2", link)
		res, err := prep.Run(context.Background(), protocol.Decision{Kind: protocol.DecisionOnce})
		var out map[string]any
		json.Unmarshal(res.Output, &out)
		if err != nil || !res.IsError || errCode(out) != tools.CodeChangedSincePreview {
			t.Fatalf("%s after the swap: %v %s", action, err, res.Output)
		}
		for _, d := range []string{"d1", "d2"} {
			if _, err := os.Stat(filepath.Join(root, d, "ran")); err == nil {
				t.Fatalf("%s: the command ran in %s", action, d)
			}
		}
	}
}
