package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/mcp/mcptest"
	"gatehouse/internal/netproxy"
)

func TestBrowserServersAreRecognised(t *testing.T) {
	for _, c := range []struct {
		cfg  ServerConfig
		want bool
	}{
		{ServerConfig{Command: "npx", Args: []string{"-y", "@playwright/mcp@latest"}}, true},
		{ServerConfig{Command: "npx", Args: []string{"@playwright/mcp"}}, true},
		{ServerConfig{Command: "node", Args: []string{"/x/node_modules/@playwright/mcp/cli.js", "--headless"}}, true},
		{ServerConfig{Command: "/usr/local/bin/mcp-server-playwright"}, true},
		{ServerConfig{Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-everything"}}, false},
		{ServerConfig{Command: "npx", Args: []string{"-y", "@playwright/mcp-extra"}}, false},
		{ServerConfig{URL: "http://localhost:8931/mcp"}, false},
	} {
		if got := c.cfg.Browser(); got != c.want {
			t.Errorf("%v: Browser() = %v", c.cfg.CommandLine(), got)
		}
	}
	// The user's own --proxy-server gives way to the app's.
	c := ServerConfig{Command: "npx", Args: []string{"@playwright/mcp", "--proxy-server", "http://mine:1", "--headless", "--proxy-server=http://mine:2"}}
	if got := c.withProxy("http://127.0.0.1:9").Args; !slices.Equal(got, []string{"@playwright/mcp", "--headless", "--proxy-server=http://127.0.0.1:9"}) {
		t.Errorf("with the app's proxy: %q", got)
	}
}

// A user's browser server started with the app's proxy (AppProxy) sends
// its pages through it: a domain on the allow-list opens, another is
// refused by the proxy, which names the domain.
func TestABrowserServerWithTheAppsProxyIsHeldToTheAllowList(t *testing.T) {
	js := mcptest.Browser(t)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<title>page of %s</title><p>hello</p>", r.Host)
	}))
	defer page.Close()
	p, err := netproxy.Start(netproxy.Options{Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return (&net.Dialer{}).DialContext(ctx, network, page.Listener.Addr().String())
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	e, err := p.Endpoint(func(d string) bool { return d == "allowed.test" })
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	cfg := ServerConfig{Command: "node", Args: mcptest.BrowserArgs(js, t.TempDir()), AppProxy: true}
	m := newTestManager(t, Options{Proxy: func() (string, error) { return e.URL(), nil }}, Entry{Name: "browser", Source: "user", Config: cfg})
	st := mustStatus(t, m, "browser")
	if st.State != StateReady || !st.Browser || !st.AppProxy || !st.Unconfined {
		t.Fatalf("the browser server: %+v", st)
	}
	nav := findTool(t, m, "mcp__browser__browser_navigate")
	res, err := nav.Run(context.Background(), json.RawMessage(`{"url":"http://allowed.test/"}`))
	if err != nil || res.IsError || !strings.Contains(string(res.Output), "page of allowed.test") {
		t.Fatalf("an allowed page: %v %s", err, res.Output)
	}
	res, _ = nav.Run(context.Background(), json.RawMessage(`{"url":"http://refused.test/"}`))
	if strings.Contains(string(res.Output), "page of refused.test") {
		t.Fatalf("a page off the list opened: %s", res.Output)
	}
	reached, refused := e.Domains()
	if !slices.Contains(reached, "allowed.test") || !slices.Contains(refused, "refused.test") {
		t.Fatalf("the proxy saw: reached %v, refused %v; the result: %s", reached, refused, res.Output)
	}
}
