//go:build linux

package sandbox_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha512"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gatehouse/internal/netproxy"
	"gatehouse/internal/sandbox"
)

// testProxy runs the app's proxy with a test-only resolution: names to the
// test's own servers (on loopback, which the real dialer refuses).
func testProxy(t *testing.T, names map[string]string) *netproxy.Proxy {
	t.Helper()
	p, err := netproxy.Start(netproxy.Options{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		if a, ok := names[addr]; ok {
			return (&net.Dialer{}).DialContext(ctx, network, a)
		}
		return nil, fmt.Errorf("no such host %s", addr)
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

func needNetABI(t *testing.T) {
	if sandbox.ABI() < sandbox.NetABI {
		t.Skip("this kernel's Landlock has no TCP rule")
	}
}

func needTool(t *testing.T, name string) {
	if _, err := exec.LookPath(name); err != nil {
		t.Skip(name + " is not installed")
	}
}

// In allow-list mode a confined curl reaches a listed domain (plain HTTP
// and HTTPS) through the proxy, another domain is refused by the proxy,
// and the command's record names both; a direct TCP, MPTCP or UDP
// connection fails and its listener hears nothing.
func TestAllowListReachesListedDomainsOnlyThroughTheProxy(t *testing.T) {
	needNetABI(t)
	needTool(t, "curl")
	needPython(t)
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello from "+r.Host) }))
	t.Cleanup(plain.Close)
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "secure "+r.Host) }))
	t.Cleanup(secure.Close)
	p := testProxy(t, map[string]string{
		"docs.allowed.test:80": plain.Listener.Addr().String(),
		"example.com:443":      secure.Listener.Addr().String(), // httptest's certificate is for example.com
		"other.test:80":        plain.Listener.Addr().String(),
		"other.test:443":       secure.Listener.Addr().String(),
	})
	layered(t, boxOpts{on: true, proxy: p, allow: []string{"*.allowed.test", "example.com"}}, func(t *testing.T, b *box) {
		ca := filepath.Join(b.ws, "ca.pem")
		os.WriteFile(ca, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: secure.Certificate().Raw}), 0o644)

		if out := b.mustRun(t, "curl -sS --max-time 10 http://docs.allowed.test/page"); out != "hello from docs.allowed.test" {
			t.Fatalf("plain HTTP to a listed domain: %q", out)
		}
		if out := b.mustRun(t, "curl -sS --max-time 10 --cacert ca.pem https://example.com/"); out != "secure example.com" {
			t.Fatalf("HTTPS to a listed domain: %q", out)
		}
		code, out, res := b.runRes(t, "curl -sS --max-time 10 http://other.test/; curl -sS --max-time 10 --cacert ca.pem https://other.test/")
		if code == 0 || !strings.Contains(out, "refused other.test") || !strings.Contains(out, "403") {
			t.Fatalf("another domain: exit %d %q", code, out)
		}
		if res.Network == nil || !slices.Equal(res.Network.Refused, []string{"other.test"}) || len(res.Network.Reached) != 0 {
			t.Fatalf("the command's record: %+v", res.Network)
		}
		if _, _, res := b.runRes(t, "curl -sS http://docs.allowed.test/"); res.Network == nil || !slices.Equal(res.Network.Reached, []string{"docs.allowed.test"}) {
			t.Fatalf("each command has its own record: %+v", res.Network)
		}
		// A child the command left in the background keeps its identity
		// after the shell ended (with Landlock alone: a PID namespace ends
		// with its shell).
		if b.landlockOnly {
			backgroundReaches(t, b)
		}

		o := listenOutside(t)
		o.commands["curl"] = fmt.Sprintf("curl -sS --noproxy '*' --max-time 5 http://127.0.0.1:%d/", o.tcpPort)
		o.commands["plain-dns"] = `python3 -c 'import socket; print(socket.getaddrinfo("example.com", 80))'`
		for name, cmd := range o.commands {
			if code, out := b.run(t, cmd); code == 0 || strings.Contains(out, "connected") || strings.Contains(out, "sent") {
				t.Errorf("%s in allow-list mode: exit %d %q", name, code, out)
			}
		}
		o.quiet(t, "in allow-list mode")
	})
}

// backgroundReaches checks that a child b's command leaves in the
// background reaches docs.allowed.test after the command ended.
func backgroundReaches(t *testing.T, b *box) {
	t.Helper()
	b.mustRun(t, "(sleep 1; curl -sS --max-time 10 http://docs.allowed.test/bg > bg.part 2>&1; mv bg.part bg.txt) >/dev/null 2>&1 &")
	deadline := time.Now().Add(20 * time.Second)
	for {
		if got, err := os.ReadFile(filepath.Join(b.ws, "bg.txt")); err == nil {
			if string(got) != "hello from docs.allowed.test" {
				t.Fatalf("a background child's request: %q", got)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the background child never finished")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// A server a session's `start` runs is reached by the session's later
// commands on localhost, also once the holder they join was replaced by a
// policy change (a .git made: the session's network is the session's, not
// the holder's), and from this machine (the panel's port link).
func TestAllowListKeepsTheSessionsServersReachable(t *testing.T) {
	needNetABI(t)
	needTool(t, "curl")
	needPython(t)
	p := testProxy(t, nil)
	layered(t, boxOpts{on: true, proxy: p, portScan: 100 * time.Millisecond}, func(t *testing.T, b *box) {
		port := freePort(t)
		startServer(t, b, port)
		get := fmt.Sprintf("curl -sS --max-time 5 http://localhost:%d/index.html", port)
		if out := b.mustRun(t, get); out != "dev server page" {
			t.Fatalf("a later command did not reach the session's server: %q", out)
		}
		if !b.joins {
			return
		}
		ns := "readlink /proc/self/ns/mnt /proc/self/ns/net"
		before := strings.Fields(b.mustRun(t, ns))
		if err := os.Mkdir(filepath.Join(b.ws, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		after := strings.Fields(b.mustRun(t, ns))
		if len(before) != 2 || len(after) != 2 || before[0] == after[0] || before[1] != after[1] {
			t.Fatalf("a new holder in the same network: before %q, after %q", before, after)
		}
		if host, _ := os.Readlink("/proc/self/ns/net"); before[1] == host {
			t.Fatalf("the commands are in this machine's network (%s), not the session's", host)
		}
		if out := b.mustRun(t, get); out != "dev server page" {
			t.Fatalf("after the holder was replaced, a command did not reach the session's server: %q", out)
		}
	})
}

// A started process's status names the domains it reached and was
// refused so far (the model's `status`, and its card).
func TestAllowListStartedProcessTellsItsDomains(t *testing.T) {
	needNetABI(t)
	needTool(t, "curl")
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	t.Cleanup(web.Close)
	p := testProxy(t, map[string]string{"docs.allowed.test:80": web.Listener.Addr().String(), "other.test:80": web.Listener.Addr().String()})
	layered(t, boxOpts{on: true, proxy: p, allow: []string{"docs.allowed.test"}}, func(t *testing.T, b *box) {
		in, err := b.reg.Start("curl -sS http://docs.allowed.test/; curl -sS http://other.test/; sleep 30", b.ws)
		if err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(15 * time.Second)
		for {
			now, err := b.reg.Info(in.ProcessID)
			if err != nil {
				t.Fatal(err)
			}
			if n := now.Network; n != nil && slices.Equal(n.Reached, []string{"docs.allowed.test"}) && slices.Equal(n.Refused, []string{"other.test"}) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the started process's domains: %+v", now.Network)
			}
			time.Sleep(100 * time.Millisecond)
		}
	})
}

// npm ci installs from a registry whose domain is on the list, through
// the proxy (a local registry with one package).
func TestAllowListNpmCIFromAListedRegistry(t *testing.T) {
	needNetABI(t)
	needTool(t, "npm")
	tgz := npmTarball(t, map[string]string{
		"package/package.json": `{"name":"tiny","version":"1.0.0","main":"index.js"}`,
		"package/index.js":     `module.exports = "tiny works";`,
	})
	sum := sha512.Sum512(tgz)
	integrity := "sha512-" + base64.StdEncoding.EncodeToString(sum[:])
	var hits atomic.Int32
	reg := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		switch r.URL.Path {
		case "/tiny/-/tiny-1.0.0.tgz":
			w.Write(tgz)
		case "/tiny":
			fmt.Fprintf(w, `{"name":"tiny","dist-tags":{"latest":"1.0.0"},"versions":{"1.0.0":{"name":"tiny","version":"1.0.0","dist":{"tarball":"http://registry.test/tiny/-/tiny-1.0.0.tgz","integrity":%q}}}}`, integrity)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(reg.Close)
	p := testProxy(t, map[string]string{"registry.test:80": reg.Listener.Addr().String()})
	layered(t, boxOpts{on: true, proxy: p, allow: []string{"registry.test"},
		env: []string{"npm_config_registry=http://registry.test/", "npm_config_audit=false", "npm_config_fund=false", "npm_config_update_notifier=false"}},
		func(t *testing.T, b *box) {
			os.WriteFile(filepath.Join(b.ws, "package.json"), []byte(`{"name":"app","version":"1.0.0","dependencies":{"tiny":"1.0.0"}}`), 0o644)
			os.WriteFile(filepath.Join(b.ws, "package-lock.json"), []byte(fmt.Sprintf(`{"name":"app","version":"1.0.0","lockfileVersion":3,"requires":true,"packages":{"":{"name":"app","version":"1.0.0","dependencies":{"tiny":"1.0.0"}},"node_modules/tiny":{"version":"1.0.0","resolved":"http://registry.test/tiny/-/tiny-1.0.0.tgz","integrity":%q}}}`, integrity)), 0o644)
			before := hits.Load()
			_, _, res := b.runRes(t, "npm ci --no-audit --no-fund && node -e 'console.log(require(\"tiny\"))'")
			out := b.mustRun(t, "node -e 'console.log(require(\"tiny\"))'")
			if strings.TrimSpace(out) != "tiny works" || hits.Load() == before {
				t.Fatalf("npm ci through the proxy: %q (registry hits %d)", out, hits.Load()-before)
			}
			if res.Network == nil || !slices.Contains(res.Network.Reached, "registry.test") {
				t.Fatalf("npm's record: %+v", res.Network)
			}
		})
}

// npmTarball packs files (paths below package/) as npm publishes them.
func npmTarball(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, name := range []string{"package/package.json", "package/index.js"} {
		body := files[name]
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), ModTime: time.Unix(1700000000, 0), Typeflag: tar.TypeReg})
		io.WriteString(tw, body)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
