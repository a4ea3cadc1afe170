package mcp

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/netproxy"
	"gatehouse/internal/sandbox"
	cmdhost "gatehouse/internal/sandbox/host"
	"gatehouse/internal/supervisor/suptest"
)

// A workspace's own server in the network's allow-list mode runs as the
// app runs it (host.Confinement: one proxy identity for the server's
// life): it reaches a listed domain through the proxy, is refused another
// by the proxy, and a direct connection to the same server fails.
func TestWorkspaceServerReachesTheWebOnlyThroughTheProxy(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	if sandbox.ABI() < sandbox.NetABI {
		t.Skip("this kernel's Landlock has no TCP rule: the allow-list mode turns the network off")
	}
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello from "+r.Host) }))
	defer web.Close()
	t.Setenv("GATEHOUSE_SUPERVISOR", suptest.Binary(t))
	h := cmdhost.New(t.TempDir(), slog.New(slog.NewTextHandler(io.Discard, nil)))
	defer h.Close()
	h.ProxyOptions = netproxy.Options{Dial: func(ctx context.Context, network, _ string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, web.Listener.Addr().String()) // every name: the test server
	}}
	cfg := cmdhost.Config{Network: netproxy.ModeAllowList, Allow: []string{"docs.example"}}

	ws := t.TempDir()
	out := func(name string) string { b, _ := os.ReadFile(filepath.Join(ws, name)); return string(b) }
	plant(t, ws, map[string]string{"srv.py": `import socket, urllib.request, urllib.error
def fetch(url, name):
    try:
        body = urllib.request.urlopen(url, timeout=10).read().decode()
    except urllib.error.HTTPError as e:
        body = "refused %d %s" % (e.code, e.read().decode())
    except Exception as e:
        body = "failed %r" % e
    open(name, "w").write(body)
fetch("http://docs.example/", "listed.txt")
fetch("http://other.example/", "other.txt")
try:
    socket.create_connection(("127.0.0.1", ` + strings.Split(web.Listener.Addr().String(), ":")[1] + `), timeout=5)
    open("direct.txt", "w").write("connected")
except OSError as e:
    open("direct.txt", "w").write("refused %r" % e)
`})
	entry := Entry{Name: "ws", Source: WorkspaceConfig, Config: ServerConfig{Command: "python3", Args: []string{"srv.py"}}}
	confine := func(ws string) Confinement {
		helper, p, why := h.Confinement(ws, os.Environ(), cfg)
		return Confinement{Helper: helper, Policy: p, Why: why}
	}
	newTestManager(t, Options{Workspace: ws, Confine: confine}, entry)
	if got := out("listed.txt"); got != "hello from docs.example" {
		t.Errorf("the listed domain through the proxy: %q", got)
	}
	if got := out("other.txt"); !strings.HasPrefix(got, "refused 403") || !strings.Contains(got, "refused other.example") {
		t.Errorf("another domain: %q, want the proxy's refusal", got)
	}
	if got := out("direct.txt"); !strings.HasPrefix(got, "refused") {
		t.Errorf("a direct connection: %q, want it refused", got)
	}
}
