package gui

import (
	"gatehouse/internal/protocol"

	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/netproxy"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/settings"
	"gatehouse/internal/supervisor/suptest"
)

// In allow-list mode the window's commands reach a listed domain through
// the proxy; a refused one is named to the model and on the card, and the
// user's click (AllowDomain) lets the session's next command reach it.
func TestAllowListRefusalExplainsItselfAndIsAllowedForTheSession(t *testing.T) {
	suptest.Confining(t)
	if sandbox.ABI() < sandbox.NetABI {
		t.Skip("this kernel's Landlock has no TCP rule")
	}
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "page of "+r.Host) }))
	t.Cleanup(web.Close)
	curl := func(id, host string) llmtest.Response {
		return llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: id, Name: "bash",
			Arguments: llmtest.Text(fmt.Sprintf(`{"action":"exec","command":"curl -sS --max-time 10 http://%s/"}`, host))}}}
	}
	app, _, srv := newTestAppServer(t, llmtest.Script{Responses: []llmtest.Response{
		curl("c1", "docs.test"), curl("c2", "refused.test"), {Text: llmtest.Text("blocked")},
		curl("c3", "refused.test"), {Text: llmtest.Text("done")},
	}})
	// Test-only resolution: both names lead to the local server.
	app.cmdHost().ProxyOptions = netproxy.Options{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, web.Listener.Addr().String())
	}}
	if _, err := app.SetNetwork("allow-list", []string{"https://docs.test/"}); err == nil {
		t.Fatal("a URL was saved as a domain")
	}
	v, err := app.SetNetwork("allow-list", []string{" Docs.Test ", ""})
	if err != nil || v.NetworkMode != "allow-list" || len(v.NetworkAllow) != 1 || v.NetworkAllow[0] != "docs.test" ||
		!strings.Contains(v.Line, "Network: allow-list") {
		t.Fatalf("network view: %+v %v", v, err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "fetch"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	reqs := srv.ModelRequests()
	last := string(reqs[len(reqs)-1].Body)
	for _, want := range []string{"page of docs.test", `\"refused\":[\"refused.test\"]`, "refused refused.test: not on the user's network allow-list"} {
		if !strings.Contains(last, want) {
			t.Errorf("the model was not told %q:\n%s", want, last)
		}
	}
	if err := app.AllowDomain("*.test"); err == nil {
		t.Fatal("a wildcard was allowed from a card")
	}
	if err := app.AllowDomain("refused.test"); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "again"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	reqs = srv.ModelRequests()
	if last := string(reqs[len(reqs)-1].Body); !strings.Contains(last, "page of refused.test") {
		t.Fatalf("the domain allowed for the session was not reached:\n%s", last)
	}
}

// "Allow X always" on a refusal's card adds the exact domain to Settings →
// Network's allow-list, on disk, once; a later session's web_fetch and
// commands may reach it. A wildcard or a URL is refused and changes nothing.
func TestAllowDomainAlwaysAddsToTheAllowList(t *testing.T) {
	app, _ := newTestApp(t, llmtest.Script{})
	if _, err := app.SetNetwork("allow-list", []string{"docs.test"}); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"*.test", "https://refused.test/", "refused.test:443", ""} {
		if _, err := app.AllowDomainAlways(bad); err == nil {
			t.Errorf("%q was added", bad)
		}
	}
	v, err := app.AllowDomainAlways(" Refused.Test ")
	if err != nil || !slices.Equal(v.NetworkAllow, []string{"docs.test", "refused.test"}) || v.NetworkMode != "allow-list" {
		t.Fatalf("view %+v %v", v, err)
	}
	if v, _ := app.AllowDomainAlways("refused.test"); len(v.NetworkAllow) != 2 {
		t.Fatalf("added twice: %v", v.NetworkAllow)
	}
	s, err := settings.NewStore(app.store.Dir()).Load()
	if err != nil || !slices.Equal(s.NetworkAllow, []string{"docs.test", "refused.test"}) {
		t.Fatalf("on disk: %v %v", s.NetworkAllow, err)
	}
	id := app.NewSession().SessionID
	n := app.cmdHost().Network(id, app.kit.Sandbox)
	if !n.Allowed("refused.test") || n.Allowed("api.refused.test") || n.Allowed("other.test") {
		t.Fatal("a new session's network does not hold exactly the added domain")
	}
}
