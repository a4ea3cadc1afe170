package netproxy

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// A program that cannot send credentials (Chromium's --proxy-server) goes
// through an endpoint: its requests are held to the allow-list like a
// command's, while the main port still refuses them without an identity.
func TestEndpointHoldsAProgramWithoutCredentialsToTheList(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "hello "+r.Host) }))
	defer srv.Close()
	p, err := Start(Options{Dial: hosts(map[string]string{"docs.example:80": srv.Listener.Addr().String(), "evil.example:80": srv.Listener.Addr().String()})})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	e, err := p.Endpoint(func(d string) bool { return d == "docs.example" })
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(e.URL(), "@") {
		t.Fatalf("the endpoint's URL carries credentials: %s", e.URL())
	}
	get := func(proxy, u string) (int, string) {
		t.Helper()
		resp, err := client(t, proxy, nil).Get(u)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get(e.URL(), "http://docs.example/"); code != 200 || body != "hello docs.example" {
		t.Fatalf("a listed domain through the endpoint: %d %q", code, body)
	}
	if code, body := get(e.URL(), "http://evil.example/"); code != http.StatusForbidden || !strings.Contains(body, "evil.example") {
		t.Fatalf("another domain through the endpoint: %d %q", code, body)
	}
	if reached, refused := e.Domains(); len(reached) != 1 || len(refused) != 1 {
		t.Errorf("the endpoint's record: reached %v, refused %v", reached, refused)
	}
	if code, _ := get("http://127.0.0.1:"+strconv.Itoa(p.Port()), "http://docs.example/"); code != http.StatusProxyAuthRequired {
		t.Fatalf("the main port without an identity: %d, want 407", code)
	}
	e.Close()
	if _, err := client(t, e.URL(), nil).Get("http://docs.example/"); err == nil {
		t.Fatal("a closed endpoint still serves")
	}
}
