package netproxy

import (
	"context"
	"crypto/tls"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// hosts is a test-only resolution: names to the test servers' addresses.
func hosts(m map[string]string) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		host, port, _ := net.SplitHostPort(addr)
		if a, ok := m[host+":"+port]; ok {
			return (&net.Dialer{}).DialContext(ctx, network, a)
		}
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
}

func client(t *testing.T, proxyURL string, tlsConf *tls.Config) *http.Client {
	t.Helper()
	u, err := url.Parse(proxyURL)
	if err != nil {
		t.Fatal(err)
	}
	return &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(u), TLSClientConfig: tlsConf}}
}

func TestProxyAllowsListedDomainsAndRefusesOthers(t *testing.T) {
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "plain "+r.Host) }))
	defer plain.Close()
	secure := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "secure "+r.Host) }))
	defer secure.Close()
	p, err := Start(Options{Dial: hosts(map[string]string{
		"docs.example:80":      plain.Listener.Addr().String(),
		"api.example.org:443":  secure.Listener.Addr().String(),
		"evil.example:80":      plain.Listener.Addr().String(),
		"evil.example.org:443": secure.Listener.Addr().String(),
	})})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	list := []string{"docs.example", "*.example.org"}
	c := p.Open(func(d string) bool { return Match(list, d) })
	tlsConf := secure.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	tlsConf.ServerName = "example.com" // httptest's certificate names example.com
	cl := client(t, c.URL(), tlsConf)

	get := func(u string) (int, string, http.Header) {
		t.Helper()
		resp, err := cl.Get(u)
		if err != nil {
			return 0, err.Error(), nil
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	if code, body, _ := get("http://docs.example/x"); code != 200 || body != "plain docs.example" {
		t.Fatalf("plain HTTP to a listed domain: %d %q", code, body)
	}
	if code, body, _ := get("https://api.example.org/"); code != 200 || body != "secure api.example.org" {
		t.Fatalf("CONNECT to a wildcard-listed domain: %d %q", code, body)
	}
	code, body, h := get("http://evil.example/")
	if code != http.StatusForbidden || !strings.Contains(body, "refused evil.example") || h.Get(RefusedHeader) != "evil.example" {
		t.Fatalf("plain HTTP to another domain: %d %q", code, body)
	}
	if _, body, _ := get("https://evil.example.org.attacker.test/"); !strings.Contains(body, "Forbidden") {
		t.Fatalf("CONNECT to a name that only ends like a listed one: %q", body)
	}
	reached, refused := c.Domains()
	if !slices.Equal(reached, []string{"api.example.org", "docs.example"}) ||
		!slices.Equal(refused, []string{"evil.example", "evil.example.org.attacker.test"}) {
		t.Fatalf("domains: reached %v, refused %v", reached, refused)
	}

	// Another command's identity has its own record; a closed one is refused.
	other := p.Open(func(string) bool { return true })
	other.Close()
	cl = client(t, other.URL(), nil)
	if code, _, _ := get("http://docs.example/"); code != http.StatusProxyAuthRequired {
		t.Fatalf("closed identity: %d, want 407", code)
	}
	cl = client(t, "http://127.0.0.1:"+strconv.Itoa(p.Port()), nil)
	if code, _, _ := get("http://docs.example/"); code != http.StatusProxyAuthRequired {
		t.Fatalf("no identity: %d, want 407", code)
	}
	if r, _ := c.Domains(); len(r) != 2 {
		t.Fatalf("the first command's record changed: %v", r)
	}
}

func TestDialerRefusesThisMachineAndMetadata(t *testing.T) {
	d := &Dialer{}
	for _, addr := range []string{"127.0.0.1:80", "[::1]:80", "0.0.0.0:80", "169.254.169.254:80", "localhost:80"} {
		if c, err := d.DialContext(context.Background(), "tcp", addr); err == nil || !strings.Contains(err.Error(), "does not reach") {
			if c != nil {
				c.Close()
			}
			t.Errorf("%s: %v, want a refusal", addr, err)
		}
	}
}

func TestMatchAndCleanList(t *testing.T) {
	list, err := CleanList([]string{" Registry.NPMjs.org ", "", "*.github.com", "registry.npmjs.org"})
	if err != nil || !slices.Equal(list, []string{"registry.npmjs.org", "*.github.com"}) {
		t.Fatalf("CleanList: %v %v", list, err)
	}
	for d, want := range map[string]bool{"registry.npmjs.org": true, "REGISTRY.npmjs.org.": true, "api.github.com": true,
		"github.com": false, "evilgithub.com": false, "npmjs.org": false, "x.registry.npmjs.org": false} {
		if Match(list, d) != want {
			t.Errorf("Match(%q) = %v", d, !want)
		}
	}
	for _, bad := range []string{"https://example.com", "example.com:443", "a.*.com", "*", "ex ample.com", "example.com/x"} {
		if _, err := CleanList([]string{bad}); err == nil {
			t.Errorf("CleanList(%q) took it", bad)
		}
	}
}
