//go:build linux

package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary is also a fake language server (LSP_FAKE set): it
// answers initialize and publishes one error per line "BAD" of each
// document; "CRASH" in a document makes it exit, and with LSP_FAKE=hang it
// never publishes. It writes its pid to LSP_FAKE_PIDS.
func TestMain(m *testing.M) {
	if mode := os.Getenv("LSP_FAKE"); mode == "app" {
		fakeApp()
		return
	} else if mode != "" {
		fakeServer(mode)
		return
	}
	os.Exit(m.Run())
}

func fakeServer(mode string) {
	if f := os.Getenv("LSP_FAKE_PIDS"); f != "" {
		pf, _ := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		pf.WriteString(strconv.Itoa(os.Getpid()) + "\n")
		pf.Close()
	}
	if mode == "child" { // a grandchild that must not outlive the session
		time.Sleep(time.Hour)
		return
	}
	if mode == "spawn" {
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), "LSP_FAKE=child")
		c.Start()
	}
	r := bufio.NewReader(os.Stdin)
	pr, _ := io.Pipe()
	out := NewConn(pr, os.Stdout, nil)
	for {
		m, err := readMessage(r)
		if err != nil {
			os.Exit(0)
		}
		switch m.Method {
		case "initialize", "shutdown":
			_ = out.send(&message{JSONRPC: "2.0", ID: m.ID, Result: json.RawMessage(`{"capabilities":{}}`)})
		case "exit":
			os.Exit(0)
		case "textDocument/didOpen", "textDocument/didChange":
			var p struct {
				TextDocument struct {
					URI     string `json:"uri"`
					Version int    `json:"version"`
					Text    string `json:"text"`
				} `json:"textDocument"`
				ContentChanges []struct {
					Text string `json:"text"`
				} `json:"contentChanges"`
			}
			json.Unmarshal(m.Params, &p)
			text := p.TextDocument.Text
			if len(p.ContentChanges) > 0 {
				text = p.ContentChanges[0].Text
			}
			if strings.Contains(text, "CRASH") {
				os.Exit(3)
			}
			if mode == "escape" {
				// What a planted tsserver plugin would do: write beside
				// the workspace, and inside it.
				errOut := os.WriteFile(os.Getenv("LSP_FAKE_OUT"), []byte("escaped"), 0o644)
				_ = os.WriteFile(filepath.Join(filepath.Dir(uriPath(p.TextDocument.URI)), "inside"), []byte("ran"), 0o644)
				if errOut != nil {
					text = ""
				}
			}
			if mode == "hang" {
				continue
			}
			var ds []lspDiagnostic
			for i, l := range strings.Split(text, "\n") {
				if strings.Contains(l, "BAD") {
					ds = append(ds, lspDiagnostic{Range: Range{Start: Position{Line: i}}, Severity: SeverityError, Message: "bad line"})
				}
			}
			v := p.TextDocument.Version
			_ = out.Notify("textDocument/publishDiagnostics", publishParams{URI: p.TextDocument.URI, Version: &v, Diagnostics: ds})
		}
	}
}

// fakeManager is a manager whose one server is the fake, for *.txt.
func fakeManager(t *testing.T, mode string, o Options) (*Manager, string, string) {
	t.Helper()
	root := t.TempDir()
	pids := filepath.Join(t.TempDir(), "pids")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	o.Servers = []ServerConfig{{Name: "fake", Command: exe, Patterns: []string{"*.txt"},
		Env: map[string]string{"LSP_FAKE": mode, "LSP_FAKE_PIDS": pids}}}
	if o.Timeout == 0 {
		o.Timeout = 5 * time.Second
	}
	return newTestManager(t, root, o), root, pids
}

func readPids(t *testing.T, file string) []int {
	b, _ := os.ReadFile(file)
	var out []int
	for _, f := range strings.Fields(string(b)) {
		n, _ := strconv.Atoi(f)
		out = append(out, n)
	}
	return out
}

func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	return err != nil || !strings.Contains(string(b), ") Z ")
}

// TestACrashedServerRestarts: a server that exits is shown crashed with
// why, the check that lost it says so, and the next check after the
// backoff starts it again and gets its diagnostics.
func TestACrashedServerRestarts(t *testing.T) {
	m, root, _ := fakeManager(t, "plain", Options{})
	file := filepath.Join(m.Root(), "a.txt")
	plant(t, root, map[string]string{"a.txt": "ok\nBAD\n"})
	ctx := context.Background()
	if r := m.Check(ctx, Disk(file), false); len(r.Files["a.txt"]) != 1 {
		t.Fatalf("first: %+v", r)
	}
	crash := "CRASH\n"
	r := m.Check(ctx, map[string]*string{file: &crash}, true)
	if len(r.Problems) != 1 || !strings.Contains(r.Problems[0], "fake crashed") {
		t.Fatalf("crash: %+v", r)
	}
	st := m.Statuses()
	if len(st) != 1 || st[0].State != StateCrashed || !strings.Contains(st[0].Error, "exit status 3") {
		t.Fatalf("status: %+v", st)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		r = m.Check(ctx, Disk(file), false)
		if len(r.Problems) == 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(r.Files["a.txt"]) != 1 || len(r.Problems) != 0 {
		t.Fatalf("after restart: %+v", r)
	}
	if st := m.Statuses(); st[0].State != StateReady || st[0].Restarts != 1 {
		t.Fatalf("status after restart: %+v", st)
	}
}

// TestAHangingServerTimesOut: a server that never publishes makes a check
// end at its timeout with a line saying so, not wait on.
func TestAHangingServerTimesOut(t *testing.T) {
	m, root, _ := fakeManager(t, "hang", Options{Timeout: 300 * time.Millisecond})
	plant(t, root, map[string]string{"a.txt": "BAD\n"})
	start := time.Now()
	r := m.Check(context.Background(), Disk(filepath.Join(m.Root(), "a.txt")), true)
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("took %s", took)
	}
	if len(r.Problems) != 1 || r.Problems[0] != "fake timed out after 300ms" || r.Checked("a.txt") {
		t.Fatalf("%+v", r)
	}
}

// TestNoServerOutlivesTheSession: closing the manager ends each server
// and what it started.
func TestNoServerOutlivesTheSession(t *testing.T) {
	m, root, pids := fakeManager(t, "spawn", Options{})
	plant(t, root, map[string]string{"a.txt": "BAD\n"})
	m.Check(context.Background(), Disk(filepath.Join(m.Root(), "a.txt")), false)
	deadline := time.Now().Add(30 * time.Second)
	for len(readPids(t, pids)) < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	ps := readPids(t, pids)
	if len(ps) != 2 {
		t.Fatalf("pids: %v", ps)
	}
	m.Close()
	for _, p := range ps {
		if alive(p) {
			t.Errorf("process %d is left after Close", p)
		}
	}
}
