package web

import (
	"encoding/json"
	"net/http"
	"net/netip"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/netproxy"
	"gatehouse/internal/tools"
)

// setting is a network setting the test changes as the user would.
type setting struct {
	mode string
	list []string
}

func (s *setting) get() (string, []string) { return s.mode, s.list }

func errorOf(t *testing.T, res tools.Result) (code, msg string) {
	t.Helper()
	var o out
	if err := json.Unmarshal(res.Output, &o); err != nil {
		t.Fatalf("result %s: %v", res.Output, err)
	}
	return o.Error.Code, o.Error.Message
}

// In allow-list mode a listed domain (or one allowed for the session)
// runs without a dialog in safe mode, another is refused unasked, a
// redirect to one off the list is refused at the hop; with the network
// off nothing is fetched; with it on, fetches ask again.
func TestWebFetchFollowsTheNetworkSetting(t *testing.T) {
	var srv *server
	srv = serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/away" {
			http.Redirect(w, r, "http://other.test:"+itoa(srv.addrPort().Port())+"/", http.StatusFound)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("page of " + r.Host))
	})
	loop := netip.MustParseAddr("127.0.0.1")
	dns := &fakeDNS{table: map[string][]netip.Addr{"docs.test": {loop}, "api.docs.test": {loop}, "other.test": {loop}}}
	set := &setting{mode: netproxy.ModeAllowList, list: []string{"*.docs.test"}}
	net := netproxy.NewSession(set.get)
	run, a := gatedWith(t, approval.Safe, Config{Network: net}, dns, srv)
	port := ":" + itoa(srv.addrPort().Port())

	if res := run("http://api.docs.test" + port + "/"); res.IsError || !strings.Contains(string(res.Output), "page of api.docs.test") {
		t.Fatalf("a listed domain: %s", res.Output)
	}
	if len(a.reqs) != 0 {
		t.Fatalf("a listed domain asked: %d dialogs", len(a.reqs))
	}
	res := run("http://docs.test" + port + "/") // *.docs.test does not cover docs.test
	if code, msg := errorOf(t, res); !res.IsError || code != CodeDomainRefused || !strings.Contains(msg, "docs.test is not on the network allow-list") ||
		!strings.Contains(string(res.Output), `"network":{"refused":["docs.test"]}`) {
		t.Fatalf("a domain off the list: %s", res.Output)
	}
	res = run("http://api.docs.test" + port + "/away")
	if code, msg := errorOf(t, res); !res.IsError || code != CodeDomainRefused || !strings.Contains(msg, "redirect to") ||
		!strings.Contains(string(res.Output), `"refused":["other.test"]`) {
		t.Fatalf("a redirect off the list: %s", res.Output)
	}
	if len(a.reqs) != 0 || srv.hits.Load() != 2 {
		t.Fatalf("refusals asked (%d dialogs) or reached the server (%d hits)", len(a.reqs), srv.hits.Load())
	}

	net.Allow("docs.test") // the user's click on a refusal's card
	if res := run("http://docs.test" + port + "/"); res.IsError || len(a.reqs) != 0 {
		t.Fatalf("a domain allowed for the session: %s, %d dialogs", res.Output, len(a.reqs))
	}

	set.mode = netproxy.ModeOff
	res = run("http://api.docs.test" + port + "/x")
	if code, msg := errorOf(t, res); code != CodeDomainRefused || !strings.Contains(msg, "the network is off") || strings.Contains(string(res.Output), `"network":`) {
		t.Fatalf("the network off: %s", res.Output)
	}

	set.mode = netproxy.ModeOn
	if res := run("http://other.test" + port + "/"); res.IsError || len(a.reqs) != 1 {
		t.Fatalf("the network on: %s, %d dialogs (want 1)", res.Output, len(a.reqs))
	}
}
