package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/netip"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// asker answers every request with its decision and keeps the requests.
type asker struct {
	mu       sync.Mutex
	reqs     []approval.Request
	decision protocol.Decision
}

func (a *asker) Ask(_ context.Context, r approval.Request) (protocol.Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.reqs = append(a.reqs, r)
	return a.decision, nil
}

// gated runs web_fetch (reaching srv under the names in dns) behind the
// approval gate in mode, as a session does.
func gated(t *testing.T, mode approval.Mode, dns *fakeDNS, srv *server) (func(u string) tools.Result, *asker) {
	t.Helper()
	return gatedWith(t, mode, Config{}, dns, srv)
}

// gatedWith is gated with web_fetch's configuration c.
func gatedWith(t *testing.T, mode approval.Mode, c Config, dns *fakeDNS, srv *server) (func(u string) tools.Result, *asker) {
	t.Helper()
	a := &asker{decision: protocol.Decision{Kind: protocol.DecisionSession}}
	f := newFetch(c, dns, func(ap netip.AddrPort) bool { return ap == srv.addrPort() }, time.Now)
	reg, err := tools.NewRegistry(f)
	if err != nil {
		t.Fatal(err)
	}
	g := approval.New(approval.Config{Mode: func() approval.Mode { return mode }, Gateway: a})
	rt := tools.NewRouter(reg, tools.Policy{}, tools.Plan(nil), g.Middleware)
	return func(u string) tools.Result {
		args, _ := json.Marshal(map[string]string{"url": u})
		res, err := rt.Run(context.Background(), tools.Call{ID: "c", Name: Name, Args: args})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}, a
}

func TestWebFetchAsksInSafeModeAndAllowsTheDomainForTheSession(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("ok"))
	})
	loop := netip.MustParseAddr("127.0.0.1")
	dns := &fakeDNS{table: map[string][]netip.Addr{"docs.test": {loop}, "other.test": {loop}, "api.docs.test": {loop}}}
	run, a := gated(t, approval.Safe, dns, srv)
	port := itoa(srv.addrPort().Port())

	first := "http://docs.test:" + port + "/guide?page=1"
	if res := run(first); res.IsError {
		t.Fatalf("first fetch: %s", res.Output)
	}
	if len(a.reqs) != 1 {
		t.Fatalf("safe mode: %d requests, want 1", len(a.reqs))
	}
	r := a.reqs[0]
	if r.Preview.Web == nil || r.Preview.Web.URL != first || r.Preview.Web.Domain != "docs.test" || !r.Preview.Web.NewDomain {
		t.Fatalf("preview %+v: want the full URL, the domain and that it is new", r.Preview.Web)
	}
	if r.Rule == nil || r.Rule.Domain != "docs.test" || r.Rule.Tool != Name {
		t.Fatalf("proposed rule %+v: want this domain", r.Rule)
	}

	// Covered by the session rule: another URL of the same domain runs
	// without asking.
	if res := run("http://DOCS.test:" + port + "/other"); res.IsError || res.Approval == nil || res.Approval.By != "rule" {
		t.Fatalf("same domain: %s %+v", res.Output, res.Approval)
	}
	if len(a.reqs) != 1 {
		t.Fatalf("the same domain asked again")
	}

	// Another domain, and a subdomain, ask; the rule stays exact.
	a.decision = protocol.Decision{Kind: protocol.DecisionOnce}
	run("http://other.test:" + port + "/")
	run("http://api.docs.test:" + port + "/")
	if len(a.reqs) != 3 || a.reqs[1].Preview.Web.Domain != "other.test" || a.reqs[2].Preview.Web.Domain != "api.docs.test" {
		t.Fatalf("other domains: %d requests", len(a.reqs))
	}
	if !a.reqs[1].Preview.Web.NewDomain {
		t.Fatal("other.test was not fetched before: want new")
	}
	run("http://other.test:" + port + "/again")
	if len(a.reqs) != 4 || a.reqs[3].Preview.Web.NewDomain {
		t.Fatalf("a domain fetched before is not new: %+v", a.reqs[len(a.reqs)-1].Preview.Web)
	}
}

func TestWebFetchRunsWithoutAskingInAutoMode(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) })
	run, a := gated(t, approval.Auto, &fakeDNS{}, srv)
	if res := run(srv.URL); res.IsError {
		t.Fatalf("%s", res.Output)
	}
	if len(a.reqs) != 0 || srv.hits.Load() != 1 {
		t.Fatalf("auto: %d requests, %d hits", len(a.reqs), srv.hits.Load())
	}
	// auto never widens the address check.
	if res := run("http://127.0.0.2:1/"); !res.IsError {
		t.Fatalf("auto reached a loopback address: %s", res.Output)
	}
}

func TestWebFetchIsNotReadOnly(t *testing.T) {
	if New(Config{}).Spec().ReadOnly {
		t.Fatal("web_fetch sends URLs out: it must ask in safe mode")
	}
}
