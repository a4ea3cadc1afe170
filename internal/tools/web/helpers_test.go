package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeDNS answers from a table; a name not in it does not exist.
type fakeDNS struct {
	mu    sync.Mutex
	table map[string][]netip.Addr
	calls int
}

func (r *fakeDNS) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	if a, ok := r.table[strings.ToLower(host)]; ok {
		return a, nil
	}
	return nil, fmt.Errorf("no such host %s", host)
}

func addrs(s ...string) []netip.Addr {
	var out []netip.Addr
	for _, a := range s {
		out = append(out, netip.MustParseAddr(a))
	}
	return out
}

// server is a test server counting its requests.
type server struct {
	*httptest.Server
	hits atomic.Int64
}

func serve(t *testing.T, h http.HandlerFunc) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) addrPort() netip.AddrPort {
	u, _ := url.Parse(s.URL)
	return netip.MustParseAddrPort(u.Host)
}

// reaching returns a web_fetch whose only way past the address check is
// the exact address of srv: the test-only option.
func reaching(t *testing.T, c Config, dns *fakeDNS, srv ...*server) *Fetch {
	t.Helper()
	if dns == nil {
		dns = &fakeDNS{}
	}
	allowed := map[netip.AddrPort]bool{}
	for _, s := range srv {
		allowed[s.addrPort()] = true
	}
	return newFetch(c, dns, func(ap netip.AddrPort) bool { return allowed[ap] }, time.Now)
}

type out struct {
	fetchResult
	OK    *bool `json:"ok"`
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func fetch(t *testing.T, f *Fetch, u string, extra ...string) (out, bool) {
	t.Helper()
	args := fmt.Sprintf(`{"url":%q`, u)
	for _, e := range extra {
		args += "," + e
	}
	res, err := f.Run(context.Background(), json.RawMessage(args+"}"))
	if err != nil {
		t.Fatal(err)
	}
	var o out
	if err := json.Unmarshal(res.Output, &o); err != nil {
		t.Fatalf("result %s: %v", res.Output, err)
	}
	return o, res.IsError
}

func itoa[T ~int | ~uint16](n T) string { return strconv.Itoa(int(n)) }
