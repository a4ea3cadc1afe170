package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Integration tests against the real npm servers, installed by
// `make mcp-servers` (a prerequisite of `make test`) from
// testdata/servers/package-lock.json.

func npmServer(t *testing.T, pkg string) string {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("testdata", "servers", "node_modules", "@modelcontextprotocol", pkg, "dist", "index.js"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(abs); err != nil {
		t.Skipf("%s is not installed: run `make mcp-servers` (make test does)", pkg)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed")
	}
	return abs
}

func TestEverythingOverStdio(t *testing.T) {
	js := npmServer(t, "server-everything")
	m := newTestManager(t, Options{}, Entry{Name: "everything", Config: ServerConfig{Command: "node", Args: []string{js, "stdio"}}})
	st := mustStatus(t, m, "everything")
	if st.State != StateReady {
		t.Fatalf("state %s: %s\n%s", st.State, st.Error, st.Stderr)
	}
	res, err := findTool(t, m, "mcp__everything__echo").Run(context.Background(), json.RawMessage(`{"message":"hello from gatehouse"}`))
	if err != nil || res.IsError || !strings.Contains(string(res.Output), "hello from gatehouse") {
		t.Fatalf("echo: %v %s", err, res.Output)
	}
	env := findTool(t, m, "mcp__everything__get-env")
	if env.Spec().ReadOnly {
		t.Error("get-env's read-only hint counted without the user's trust")
	}
	res, _ = findTool(t, m, "mcp__everything__get-tiny-image").Run(context.Background(), json.RawMessage(`{}`))
	if !strings.Contains(string(res.Output), "[image: image/png") {
		t.Errorf("tiny image: %s", res.Output)
	}
}

func TestEverythingOverStreamableHTTPWithHeaders(t *testing.T) {
	js := npmServer(t, "server-everything")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command("node", js, "streamableHttp")
	cmd.Env = append(os.Environ(), fmt.Sprintf("PORT=%d", port))
	ownGroup(cmd)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killGroup(cmd); cmd.Wait() })
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the HTTP server never listened on %s", addr)
		}
		time.Sleep(50 * time.Millisecond)
	}
	m := newTestManager(t, Options{}, Entry{Name: "everything", Config: ServerConfig{
		URL: "http://" + addr + "/mcp", Headers: map[string]string{"Authorization": "Bearer test-token"},
	}})
	st := mustStatus(t, m, "everything")
	if st.State != StateReady || !st.Remote {
		t.Fatalf("state %s: %s", st.State, st.Error)
	}
	res, err := findTool(t, m, "mcp__everything__echo").Run(context.Background(), json.RawMessage(`{"message":"over http"}`))
	if err != nil || res.IsError || !strings.Contains(string(res.Output), "over http") {
		t.Fatalf("echo: %v %s", err, res.Output)
	}
}

func TestFilesystemServerRootedAtTheWorkspaceRefusesOutside(t *testing.T) {
	js := npmServer(t, "server-filesystem")
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("inside the workspace\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(outside, []byte("outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newTestManager(t, Options{Workspace: ws}, Entry{Name: "fs", Config: ServerConfig{Command: "node", Args: []string{js, ws}}})
	if st := mustStatus(t, m, "fs"); st.State != StateReady {
		t.Fatalf("state %s: %s\n%s", st.State, st.Error, st.Stderr)
	}
	read := findTool(t, m, "mcp__fs__read_text_file")
	res, err := read.Run(context.Background(), json.RawMessage(fmt.Sprintf(`{"path":%q}`, filepath.Join(ws, "notes.txt"))))
	if err != nil || res.IsError || !strings.Contains(string(res.Output), "inside the workspace") {
		t.Fatalf("read inside: %v %s", err, res.Output)
	}
	res, err = read.Run(context.Background(), json.RawMessage(fmt.Sprintf(`{"path":%q}`, outside)))
	if err != nil {
		t.Fatal(err)
	}
	if code, msg := errorMessage(t, res); code != CodeToolError || !strings.Contains(strings.ToLower(msg), "access denied") {
		t.Fatalf("read outside: %s %q", code, msg)
	}
}

func TestHeadersAreSentAndAnOAuthOnlyServerIsSaidPlainly(t *testing.T) {
	got := make(chan string, 10)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("Authorization")
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://x/.well-known/oauth-protected-resource"`)
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	defer srv.Close()
	m := newTestManager(t, Options{}, Entry{Name: "cloud", Config: ServerConfig{URL: srv.URL + "/mcp", Headers: map[string]string{"Authorization": "Bearer wrong"}}})
	st := mustStatus(t, m, "cloud")
	if st.State != StateFailed || !st.NeedsOAuth || !strings.Contains(st.Error, "OAuth-only servers are not supported") {
		t.Fatalf("status %+v", st)
	}
	if h := <-got; h != "Bearer wrong" {
		t.Errorf("Authorization header %q", h)
	}
}
