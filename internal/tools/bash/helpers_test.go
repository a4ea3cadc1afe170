//go:build linux

package bash

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/proc"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/suptest"
	"gatehouse/internal/tools"
)

// dirErr is a refusal of testDirs, carrying a code as the workspace's do.
type dirErr struct{ code, path string }

func (e *dirErr) Error() string     { return e.code + ": " + e.path }
func (e *dirErr) ErrorCode() string { return e.code }
func (e *dirErr) ErrorPath() string { return e.path }

// testDirs resolves folders inside one root, refusing the rest.
type testDirs struct{ root string }

func (d testDirs) ResolveDir(dir string) (string, error) {
	p := filepath.Join(d.root, dir)
	if filepath.IsAbs(dir) {
		p = filepath.Clean(dir)
	}
	if p != d.root && !strings.HasPrefix(p, d.root+string(filepath.Separator)) {
		return "", &dirErr{tools.CodeOutsideWorkspace, dir}
	}
	if st, err := os.Stat(p); err != nil || !st.IsDir() {
		return "", &dirErr{tools.CodeNotFound, dir}
	}
	return p, nil
}

func newTool(t *testing.T, o proc.Options) (*Tool, string) {
	t.Helper()
	if o.KillGrace == 0 {
		o.KillGrace = 300 * time.Millisecond
	}
	o.Shell = "/bin/bash"
	o.PortScan = -1
	root := t.TempDir()
	if o.Supervisor == "" {
		// As in the app: under the helper, confined where Landlock exists.
		o.Supervisor = suptest.Binary(t)
		if sandbox.ABI() > 0 {
			o.Sandbox = func(string) *sandbox.Policy {
				p := sandbox.Build(sandbox.Spec{Workspace: root, Env: os.Environ()})
				return &p
			}
		}
	}
	reg := proc.NewRegistry(o)
	t.Cleanup(reg.Close)
	return New(Config{Registry: reg, Dirs: testDirs{root}}), root
}

func TestMain(m *testing.M) {
	code := m.Run()
	suptest.Cleanup()
	os.Exit(code)
}

// call runs one call and decodes its output into a map.
func call(t *testing.T, tool *Tool, args string) (map[string]any, tools.Result) {
	t.Helper()
	res, err := tool.Run(context.Background(), json.RawMessage(args))
	if err != nil {
		t.Fatalf("%s: %v", args, err)
	}
	var m map[string]any
	if err := json.Unmarshal(res.Output, &m); err != nil {
		t.Fatalf("%s: output is not JSON: %s", args, res.Output)
	}
	return m, res
}

func mustOK(t *testing.T, tool *Tool, args string) map[string]any {
	t.Helper()
	m, res := call(t, tool, args)
	if res.IsError {
		t.Fatalf("%s: error result %s", args, res.Output)
	}
	return m
}

func errCode(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	s, _ := e["code"].(string)
	return s
}

func errMessage(m map[string]any) string {
	e, _ := m["error"].(map[string]any)
	s, _ := e["message"].(string)
	return s
}

// pidAlive tells through /proc whether pid exists and is not a zombie.
func pidAlive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')')
	f := strings.Fields(string(b[i+1:]))
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	var pid int
	deadline := time.Now().Add(30 * time.Second)
	for pid == 0 && time.Now().Before(deadline) {
		b, _ := os.ReadFile(path)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		if pid == 0 {
			time.Sleep(10 * time.Millisecond)
		}
	}
	if pid == 0 {
		t.Fatalf("no pid in %s", path)
	}
	return pid
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func jsonArgs(kv ...any) string {
	m := map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	b, _ := json.Marshal(m)
	return string(b)
}
