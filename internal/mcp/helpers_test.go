package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/tools"
)

// fakeBin is the fake server program, built once by TestMain.
var fakeBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mcp-fake-")
	if err != nil {
		panic(err)
	}
	fakeBin = filepath.Join(dir, "fakeserver")
	out, err := exec.Command("go", "build", "-o", fakeBin, "./testdata/fakeserver").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building the fake server: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// fakeEntry configures the fake server in mode, writing its pids to a file
// the returned function reads.
func fakeEntry(t *testing.T, name, mode string) (Entry, func() []int) {
	t.Helper()
	pidfile := filepath.Join(t.TempDir(), "pids")
	e := Entry{Name: name, Source: "test", Config: ServerConfig{
		Command: fakeBin, Env: map[string]string{"FAKE_MODE": mode, "FAKE_PIDFILE": pidfile},
	}}
	return e, func() []int {
		b, err := os.ReadFile(pidfile)
		if err != nil {
			t.Fatalf("the fake server wrote no pid file: %v", err)
		}
		var pids []int
		for _, f := range strings.Fields(string(b)) {
			n, _ := strconv.Atoi(f)
			pids = append(pids, n)
		}
		return pids
	}
}

// newTestManager starts a manager of entries in a temporary workspace and
// closes it when the test ends.
func newTestManager(t *testing.T, opts Options, entries ...Entry) *Manager {
	t.Helper()
	if opts.Workspace == "" {
		opts.Workspace = t.TempDir()
	}
	m := NewManager(opts, entries)
	t.Cleanup(func() { m.Close() })
	m.Start()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := m.Wait(ctx); err != nil {
		t.Fatalf("servers did not settle: %v", err)
	}
	return m
}

// alive reports whether pid is a live process (a zombie is not).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// assertGone fails when any of pids still runs: every close path waits for
// the group to die, so no polling is needed.
func assertGone(t *testing.T, pids []int) {
	t.Helper()
	for _, p := range pids {
		if alive(p) {
			t.Errorf("process %d is still running", p)
		}
	}
}

func mustStatus(t *testing.T, m *Manager, name string) Status {
	t.Helper()
	st, err := m.Status(name)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// findTool returns the surface tool called name among the providers' tools.
func findTool(t *testing.T, m *Manager, name string) tools.Tool {
	t.Helper()
	for _, p := range m.Providers() {
		for _, tl := range p.Tools() {
			if tl.Spec().Name == name {
				return tl
			}
		}
	}
	t.Fatalf("no tool %s on the surface", name)
	return nil
}

// body decodes a result's output.
func body(t *testing.T, r tools.Result) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.Output, &m); err != nil {
		t.Fatalf("result is not a JSON object: %v: %s", err, r.Output)
	}
	return m
}

func errorMessage(t *testing.T, r tools.Result) (code, msg string) {
	t.Helper()
	if !r.IsError {
		t.Fatalf("expected an error result, got %s", r.Output)
	}
	e, _ := body(t, r)["error"].(map[string]any)
	code, _ = e["code"].(string)
	msg, _ = e["message"].(string)
	return code, msg
}
