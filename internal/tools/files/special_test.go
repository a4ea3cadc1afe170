//go:build unix

package files

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// specialFixture is the fixture workspace with a FIFO, a link to it and a
// listening Unix socket in it: reading either would wait forever.
func specialFixture(t *testing.T) *workspace.Workspace {
	t.Helper()
	base, w := fixture(t)
	ws := filepath.Join(base, "ws")
	if err := syscall.Mkfifo(filepath.Join(ws, "src/pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("pipe", filepath.Join(ws, "src/pipelink")); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(ws, "src/sock"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return w
}

// promptly runs fn and fails the test when it has not returned in 30 s.
func promptly(t *testing.T, what string, fn func() tools.Result) tools.Result {
	t.Helper()
	done := make(chan tools.Result, 1)
	go func() { done <- fn() }()
	select {
	case r := <-done:
		return r
	case <-time.After(30 * time.Second):
		t.Fatalf("%s did not return within 30 s", what)
		return tools.Result{}
	}
}

func runRaw(tool tools.Tool, args any) tools.Result {
	raw, _ := json.Marshal(args)
	r, err := tool.Run(context.Background(), raw)
	if err != nil {
		return tools.Result{IsError: true, Output: json.RawMessage(`"` + err.Error() + `"`)}
	}
	return r
}

func TestReadFileRefusesFIFOsAndSockets(t *testing.T) {
	ws := specialFixture(t)
	for _, p := range []string{"src/pipe", "src/pipelink", "src/sock"} {
		r := promptly(t, "read_file "+p, func() tools.Result { return runRaw(NewReadFile(ws), map[string]any{"path": p}) })
		if !r.IsError || !strings.Contains(string(r.Output), tools.CodeNotRegular) || !strings.Contains(string(r.Output), "not a regular file") {
			t.Errorf("read_file %s: %s", p, r.Output)
		}
	}
}

func TestGrepAndGlobSkipFIFOs(t *testing.T) {
	ws := specialFixture(t)
	for _, args := range []map[string]any{{"pattern": "needle"}, {"pattern": "needle", "path": "src"}, {"pattern": "x", "path": "src/pipelink"}} {
		r := promptly(t, "grep", func() tools.Result { return runRaw(NewGrep(ws), args) })
		if strings.Contains(string(r.Output), "pipe") || strings.Contains(string(r.Output), "sock") {
			t.Errorf("grep %v: %s", args, r.Output)
		}
	}
	r := promptly(t, "glob", func() tools.Result { return runRaw(NewGlob(ws), map[string]any{"pattern": "src/*"}) })
	if r.IsError || strings.Contains(string(r.Output), "pipe") || strings.Contains(string(r.Output), "sock") || !strings.Contains(string(r.Output), "a.txt") {
		t.Errorf("glob: %s", r.Output)
	}
}

func TestPreviewRefusesFIFOs(t *testing.T) {
	ws := specialFixture(t)
	for _, g := range []struct {
		tool tools.Gated
		args map[string]any
	}{
		{NewWriteFile(ws), map[string]any{"path": "src/pipe", "content": "x\n"}},
		{NewApplyPatch(ws), map[string]any{"patch": "*** Begin Patch\n*** Update File: src/pipe\n@@\n-a\n+b\n*** End Patch\n"}},
		{NewApplyPatch(ws), map[string]any{"patch": "*** Begin Patch\n*** Delete File: src/pipelink\n*** End Patch\n"}},
	} {
		r := promptly(t, "preview", func() tools.Result {
			raw, _ := json.Marshal(g.args)
			_, r, ok := g.tool.Prepare(context.Background(), raw)
			if ok {
				return tools.Result{Output: json.RawMessage(`"previewed"`)}
			}
			return r
		})
		if !r.IsError || !strings.Contains(string(r.Output), "not a regular file") {
			t.Errorf("preview %v: %s", g.args, r.Output)
		}
	}
}
