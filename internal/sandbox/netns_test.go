//go:build linux

package sandbox_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/sandbox"
)

// freePort is a loopback port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// startServer starts a dev server of the session on port (python's,
// serving the workspace) and waits until it answers from the host: in
// the session's network, through the forward of the port the scan found.
func startServer(t *testing.T, b *box, port int) {
	t.Helper()
	os.WriteFile(filepath.Join(b.ws, "index.html"), []byte("dev server page"), 0o644)
	if _, err := b.reg.Start("python3 -m http.server "+strconv.Itoa(port)+" --bind 127.0.0.1", b.ws); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		// The port link: the user's browser on this machine.
		resp, err := (&http.Client{Timeout: 5 * time.Second}).Get("http://127.0.0.1:" + strconv.Itoa(port) + "/index.html")
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(body) == "dev server page" {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session's server never answered on this machine's port %d: %v", port, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// In allow-list mode with namespaces a command reaches only the proxy and
// the session's servers, by address: another address on the proxy's port
// or on a session server's port (127.0.0.3, standing for another host)
// hears nothing. With Landlock alone (or no nsenter) the port rule lets
// it through, and the Sandbox line says so.
func TestAllowListReachesNoOtherAddressOnTheProxysOrAServersPort(t *testing.T) {
	needNetABI(t)
	needTool(t, "curl")
	needPython(t)
	p := testProxy(t, nil)
	layered(t, boxOpts{on: true, proxy: p, portScan: 100 * time.Millisecond}, func(t *testing.T, b *box) {
		server := freePort(t)
		startServer(t, b, server)
		for name, port := range map[string]int{"the proxy's port": p.Port(), "the session server's port": server} {
			other, err := net.Listen("tcp4", "127.0.0.3:"+strconv.Itoa(port))
			if err != nil {
				t.Fatal(err)
			}
			heard := make(chan struct{}, 1)
			go http.Serve(other, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				select {
				case heard <- struct{}{}:
				default:
				}
				io.WriteString(w, "another host")
			}))
			code, out := b.run(t, fmt.Sprintf("curl -sS --noproxy '*' --max-time 5 http://127.0.0.3:%d/", port))
			other.Close()
			reached := code == 0 && strings.Contains(out, "another host")
			if b.joins && reached {
				t.Errorf("%s on another address was reached: %q", name, out)
			}
			if !b.joins && !reached {
				t.Errorf("with the port rule alone, %s on another address should be reachable (the Sandbox line says so): exit %d %q", name, code, out)
			}
			select {
			case <-heard:
				if b.joins {
					t.Errorf("%s on another address heard a connection", name)
				}
			default:
			}
		}
		line := sandbox.LineOf(*b.policy())
		if says := strings.Contains(line, sandbox.NetByPort); says == b.joins {
			t.Errorf("the Sandbox line (joins %v) says by port %v: %s", b.joins, says, line)
		}
	})
}
