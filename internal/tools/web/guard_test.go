package web

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestForbiddenAddressClasses(t *testing.T) {
	for _, c := range []struct{ addr, why string }{
		{"127.0.0.1", "loopback"},
		{"127.8.9.10", "loopback"},
		{"::1", "loopback"},
		{"10.1.2.3", "private"},
		{"172.16.0.1", "private"},
		{"192.168.1.1", "private"},
		{"fd12:3456::1", "private"},
		{"169.254.1.1", "link-local"},
		{"fe80::1", "link-local"},
		{"100.64.0.1", "carrier-grade NAT"},
		{"100.127.255.254", "carrier-grade NAT"},
		{"224.0.0.1", "multicast"},
		{"ff02::1", "multicast"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"0.1.2.3", "unspecified"},
		{"169.254.169.254", "cloud metadata"},
		{"fd00:ec2::254", "cloud metadata"},
		{"::ffff:127.0.0.1", "IPv4-mapped loopback"},
		{"::ffff:10.0.0.1", "IPv4-mapped private"},
		{"::ffff:169.254.169.254", "IPv4-mapped cloud metadata"},
		{"64:ff9b::a00:1", "IPv4-embedding private"},
		{"2002:7f00:1::", "IPv4-embedding loopback"},
		{"240.0.0.1", "reserved"},
		{"255.255.255.255", "reserved"},
	} {
		if got := forbidden(netip.MustParseAddr(c.addr)); !strings.Contains(got, c.why) {
			t.Errorf("forbidden(%s) = %q, want %q", c.addr, got, c.why)
		}
	}
	for _, a := range []string{"93.184.216.34", "1.1.1.1", "100.63.255.255", "100.128.0.1", "2606:4700::1111", "::ffff:8.8.8.8"} {
		if got := forbidden(netip.MustParseAddr(a)); got != "" {
			t.Errorf("forbidden(%s) = %q, want public", a, got)
		}
	}
}

// Every forbidden class is refused after resolution, literal or by name,
// and nothing reaches the server on 127.0.0.1 (the test-only option is off).
func TestFetchRefusesForbiddenAddressesAfterResolution(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("secret")) })
	port := srv.addrPort().Port()
	dns := &fakeDNS{table: map[string][]netip.Addr{
		"localhost.evil.test": addrs("127.0.0.1"),
		"lan.evil.test":       addrs("192.168.0.10"),
		"cgnat.evil.test":     addrs("100.64.1.1"),
		"meta.evil.test":      addrs("169.254.169.254"),
		"meta6.evil.test":     addrs("fd00:ec2::254"),
		"mapped.evil.test":    addrs("::ffff:127.0.0.1"),
		"mixed.evil.test":     addrs("93.184.216.34", "127.0.0.1"),
		"multicast.evil.test": addrs("239.1.1.1"),
		"zero.evil.test":      addrs("0.0.0.0"),
	}}
	f := newFetch(Config{}, dns, nil, time.Now)
	hosts := []string{"127.0.0.1", "[::1]", "0.0.0.0", "169.254.169.254", "[fd00:ec2::254]", "[::ffff:127.0.0.1]", "10.0.0.1", "100.100.100.100"}
	for h := range dns.table {
		hosts = append(hosts, h)
	}
	for _, h := range hosts {
		u := "http://" + h + ":" + itoa(port) + "/"
		o, isErr := fetch(t, f, u)
		if !isErr || o.Error.Code != CodeBlockedAddress {
			t.Errorf("%s: want blocked_address, got %+v", u, o)
		}
	}
	if n := srv.hits.Load(); n != 0 {
		t.Fatalf("the server was reached %d times", n)
	}
}

func TestRedirectToPrivateAddressRefusedAtTheHop(t *testing.T) {
	inside := serve(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("secret")) })
	dns := &fakeDNS{table: map[string][]netip.Addr{"rebind.evil.test": addrs("10.0.0.7")}}
	for _, target := range []string{inside.URL + "/", "http://rebind.evil.test/", "http://169.254.169.254/latest/meta-data/"} {
		outside := serve(t, func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, target, http.StatusFound) })
		f := reaching(t, Config{}, dns, outside) // the first hop only
		o, isErr := fetch(t, f, outside.URL+"/start")
		if !isErr || o.Error.Code != CodeBlockedAddress {
			t.Errorf("redirect to %s: want blocked_address, got %+v", target, o)
		}
		if outside.hits.Load() != 1 {
			t.Errorf("redirect to %s: first hop reached %d times", target, outside.hits.Load())
		}
	}
	if inside.hits.Load() != 0 {
		t.Fatalf("the private server was reached through a redirect")
	}
}

func TestRedirectsFollowedUpToFive(t *testing.T) {
	var srv *server
	srv = serve(t, func(w http.ResponseWriter, r *http.Request) {
		n := len(r.URL.Path) - 1 // "/", "/a", "/aa", ...
		if r.URL.Query().Get("limit") != "" && itoa(n) == r.URL.Query().Get("limit") {
			w.Write([]byte("landed"))
			return
		}
		http.Redirect(w, r, r.URL.Path+"a?"+r.URL.RawQuery, http.StatusFound)
	})
	f := reaching(t, Config{}, nil, srv)
	if o, isErr := fetch(t, f, srv.URL+"/?limit=5"); isErr || o.Content != "landed" {
		t.Fatalf("5 redirects: %+v", o)
	}
	o, isErr := fetch(t, f, srv.URL+"/?limit=6")
	if !isErr || !strings.Contains(o.Error.Message, "more than 5 redirects") {
		t.Fatalf("6 redirects: %+v", o)
	}
}

// A rebinding resolver answers public for the check and private after:
// the dialer resolves once per connection and dials exactly what it
// checked, and refuses the private answer when it comes.
type rebinding struct {
	mu    sync.Mutex
	calls int
}

func (r *rebinding) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if r.calls == 1 {
		return addrs("203.0.113.7"), nil
	}
	return addrs("127.0.0.1"), nil
}

func TestRebindingResolverCannotRedirectTheDial(t *testing.T) {
	r := &rebinding{}
	var dialed []string
	d := &dialer{resolver: r, dial: func(_ context.Context, _, addr string) (net.Conn, error) {
		dialed = append(dialed, addr)
		return nil, errors.New("test: not connecting")
	}}
	_, err := d.DialContext(context.Background(), "tcp", "rebind.evil.test:80")
	if err == nil || len(dialed) != 1 || dialed[0] != "203.0.113.7:80" {
		t.Fatalf("first dial: %v, dialed %v: want exactly the checked public address", err, dialed)
	}
	_, err = d.DialContext(context.Background(), "tcp", "rebind.evil.test:80")
	var b *BlockedError
	if !errors.As(err, &b) || b.Addr.String() != "127.0.0.1" {
		t.Fatalf("second dial: %v, want blocked 127.0.0.1", err)
	}
	if len(dialed) != 1 || r.calls != 2 {
		t.Fatalf("dialed %v with %d lookups: want one dial, one lookup per connection", dialed, r.calls)
	}
}

func TestNoProxyFromTheEnvironment(t *testing.T) {
	t.Setenv("HTTP_PROXY", "http://127.0.0.1:1")
	t.Setenv("HTTPS_PROXY", "http://127.0.0.1:1")
	f := New(Config{})
	if tr := f.client.Transport.(*http.Transport); tr.Proxy != nil {
		t.Fatal("a proxy would dial past the address check")
	}
}

// The tool a session gets has no way to its local test server, whatever
// the arguments say.
func TestSessionToolCannotReachLocalServer(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("secret")) })
	f := New(Config{})
	for _, u := range []string{srv.URL, strings.Replace(srv.URL, "127.0.0.1", "localhost", 1), strings.Replace(srv.URL, "127.0.0.1", "[::ffff:127.0.0.1]", 1)} {
		if o, isErr := fetch(t, f, u); !isErr || o.Error.Code != CodeBlockedAddress {
			t.Errorf("%s: %+v", u, o)
		}
	}
	if o, isErr := fetch(t, f, srv.URL, `"allowLocal":true`); !isErr || o.Error.Code != "invalid_arguments" {
		t.Errorf("an unknown argument was taken: %+v", o)
	}
	if srv.hits.Load() != 0 {
		t.Fatal("reached")
	}
}
