//go:build linux

package sandbox_test

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
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
// the session's network, through the forward of the port the scan found
// (in the namespace's socket table: the panel lists it too).
func startServer(t *testing.T, b *box, port int) {
	t.Helper()
	os.WriteFile(filepath.Join(b.ws, "index.html"), []byte("dev server page"), 0o644)
	in, err := b.reg.Start("python3 -m http.server "+strconv.Itoa(port)+" --bind 127.0.0.1", b.ws)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		now, err := b.reg.Info(in.ProcessID)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(now.Ports, port) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the panel never listed the session's server's port %d: %v", port, now.Ports)
		}
		time.Sleep(100 * time.Millisecond)
	}
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

// On a kernel whose Landlock has no TCP rule (before Linux 6.7) the
// session's network namespace holds the allow-list alone: a listed domain
// through the proxy, nothing at another address (built here for ABI 3;
// the policy then asks Landlock for no TCP rule).
func TestAllowListWithoutLandlocksTCPRuleHoldsInTheSessionsNetwork(t *testing.T) {
	needTool(t, "curl")
	if l := hostLayers(); !l.Namespaces() || l.Nsenter == "" {
		t.Skip("no namespaces or nsenter here")
	}
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello from "+r.Host) }))
	t.Cleanup(web.Close)
	p := testProxy(t, map[string]string{"docs.allowed.test:80": web.Listener.Addr().String()})
	b := newBoxWith(t, boxOpts{on: true, proxy: p, allow: []string{"docs.allowed.test"}, abi: sandbox.NetABI - 1})
	if pol := b.policy(); pol.NoNetwork || pol.ProxyPort == 0 {
		t.Fatalf("the allow-list fell back to no network: %+v", pol)
	}
	if out := b.mustRun(t, "curl -sS --max-time 10 http://docs.allowed.test/page"); out != "hello from docs.allowed.test" {
		t.Fatalf("a listed domain through the proxy: %q", out)
	}
	if code, out := b.run(t, "curl -sS --noproxy '*' --max-time 5 "+web.URL+"/"); code == 0 {
		t.Fatalf("a direct connection to this machine's server: %q", out)
	}
}
