package netproxy

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawClient speaks to the proxy in bytes, as a command's HTTP client
// would, one connection for all its requests.
type rawClient struct {
	t  *testing.T
	c  net.Conn
	br *bufio.Reader
}

func dialProxy(t *testing.T, p *Proxy) *rawClient {
	t.Helper()
	c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(p.Port()))
	if err != nil {
		t.Fatal(err)
	}
	c.SetDeadline(time.Now().Add(10 * time.Second)) // a broken proxy fails the test, not hangs it
	t.Cleanup(func() { c.Close() })
	return &rawClient{t: t, c: c, br: bufio.NewReader(c)}
}

func (rc *rawClient) send(s string) {
	rc.t.Helper()
	if _, err := io.WriteString(rc.c, s); err != nil {
		rc.t.Fatal(err)
	}
}

// read reads a response to a method's request and its whole body.
func (rc *rawClient) read(method string) (*http.Response, string) {
	rc.t.Helper()
	resp, err := http.ReadResponse(rc.br, &http.Request{Method: method})
	if err != nil {
		rc.t.Fatalf("reading the proxy's response: %v", err)
	}
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		rc.t.Fatalf("reading the body: %v", err)
	}
	return resp, string(b)
}

// closed reports whether the proxy ended the connection.
func (rc *rawClient) closed() bool {
	rc.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err := rc.br.ReadByte()
	var ne net.Error
	return err != nil && !(errors.As(err, &ne) && ne.Timeout())
}

// authLine is the Proxy-Authorization header of c's URL.
func authLine(t *testing.T, c *Call) string {
	u, err := url.Parse(c.URL())
	if err != nil {
		t.Fatal(err)
	}
	pass, _ := u.User.Password()
	return "Proxy-Authorization: Basic " + base64.StdEncoding.EncodeToString([]byte(u.User.Username()+":"+pass)) + "\r\n"
}

// rawServer answers each connection with serve, in bytes.
func rawServer(t *testing.T, serve func(c net.Conn, br *bufio.Reader)) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				serve(c, bufio.NewReader(c))
			}()
		}
	}()
	return ln.Addr().String()
}

func startProxy(t *testing.T, names map[string]string) *Proxy {
	t.Helper()
	p, err := Start(Options{Dial: hosts(names)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// Every request on a kept-alive connection is checked and recorded on its
// own: a second request to another host reaches that host, one to a host
// not on the list is refused (and the connection stays usable), one whose
// server cannot be reached gets 502; two requests to one host share one
// server connection.
func TestKeepAliveChecksEveryRequest(t *testing.T) {
	server := func(name string) string {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, name+" "+r.Host+r.URL.Path+" from "+r.RemoteAddr)
		}))
		t.Cleanup(s.Close)
		return s.Listener.Addr().String()
	}
	p := startProxy(t, map[string]string{"docs.example:80": server("docs"), "api.example:80": server("api"),
		"evil.example:80": server("evil")})
	c := p.Open(func(d string) bool { return d == "docs.example" || d == "api.example" || d == "gone.example" })
	rc := dialProxy(t, p)
	get := func(u string) (*http.Response, string) {
		host, _, _ := strings.Cut(strings.TrimPrefix(u, "http://"), "/")
		rc.send("GET " + u + " HTTP/1.1\r\nHost: " + host + "\r\n" + authLine(t, c) + "\r\n")
		return rc.read("GET")
	}
	resp, first := get("http://docs.example/a")
	if resp.StatusCode != 200 || !strings.HasPrefix(first, "docs docs.example/a from ") {
		t.Fatalf("first request: %d %q", resp.StatusCode, first)
	}
	if resp, body := get("http://api.example/b"); resp.StatusCode != 200 || !strings.HasPrefix(body, "api api.example/b ") {
		t.Fatalf("second request, another host: %d %q", resp.StatusCode, body)
	}
	resp, body := get("http://evil.example/c")
	if resp.StatusCode != http.StatusForbidden || resp.Header.Get(RefusedHeader) != "evil.example" || body != Refusal("evil.example")+"\n" {
		t.Fatalf("third request, a host not on the list: %d %v %q", resp.StatusCode, resp.Header, body)
	}
	if resp, body := get("http://gone.example/"); resp.StatusCode != http.StatusBadGateway || !strings.Contains(body, "could not reach gone.example") {
		t.Fatalf("a server that cannot be dialed: %d %q", resp.StatusCode, body)
	}
	resp, again := get("http://docs.example/d")
	if resp.StatusCode != 200 || !strings.HasPrefix(again, "docs docs.example/d ") {
		t.Fatalf("after a refusal and a 502: %d %q", resp.StatusCode, again)
	}
	_, from1, _ := strings.Cut(first, " from ")
	_, from2, _ := strings.Cut(again, " from ")
	if from1 != from2 {
		t.Errorf("two requests to one host came from two server connections (%s, %s)", from1, from2)
	}
	reached, refused := c.Domains()
	if !slices.Equal(reached, []string{"api.example", "docs.example", "gone.example"}) || !slices.Equal(refused, []string{"evil.example"}) {
		t.Fatalf("domains: reached %v, refused %v", reached, refused)
	}
}

// A server connection outlives the client connection that opened it: the
// next command's request to the same host and port goes on it, checked
// with that command's identity.
func TestServerConnectionsOutliveTheCommand(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, r.RemoteAddr) }))
	t.Cleanup(s.Close)
	p := startProxy(t, map[string]string{"docs.example:80": s.Listener.Addr().String()})
	var from []string
	for i, allowed := range []bool{true, false, true} {
		c := p.Open(func(string) bool { return allowed })
		rc := dialProxy(t, p)
		rc.send("GET http://docs.example/ HTTP/1.1\r\nHost: docs.example\r\n" + authLine(t, c) + "\r\n")
		resp, body := rc.read("GET")
		if want := map[bool]int{true: 200, false: 403}[allowed]; resp.StatusCode != want {
			t.Fatalf("command %d: %d %q, want %d", i, resp.StatusCode, body, want)
		}
		if allowed {
			from = append(from, body)
		}
		rc.c.Close()
		c.Close()
		time.Sleep(20 * time.Millisecond) // the proxy sees the client leave
	}
	if from[0] != from[1] {
		t.Errorf("the second command's request went on a new server connection (%s, then %s)", from[0], from[1])
	}
}

// A request the proxy cannot read gets 400 and the connection ends; so
// does a head over 1 MiB (431); a request not in absolute form gets 400.
func TestMalformedRequests(t *testing.T) {
	p := startProxy(t, map[string]string{})
	c := p.Open(func(string) bool { return true })
	for _, bad := range []string{
		"GARBAGE\r\n\r\n",
		"GET http://docs.example/ HTTP/1.1\r\nHost: docs.example\r\nBroken header line\r\n\r\n",
		"POST http://docs.example/ HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
		"GET http://docs.example/ HTTP/1.1\r\nX-Big: " + strings.Repeat("b", 2<<20) + "\r\n\r\n",
	} {
		rc := dialProxy(t, p)
		go rc.c.Write([]byte(bad)) // the proxy may answer before it took it all
		resp, body := rc.read("GET")
		want := http.StatusBadRequest
		if len(bad) > 1<<20 {
			want = http.StatusRequestHeaderFieldsTooLarge
		}
		if resp.StatusCode != want || !resp.Close || !rc.closed() {
			t.Errorf("%.40q: %d %q, close %v; want %d and the connection closed", bad, resp.StatusCode, body, resp.Close, want)
		}
	}
	rc := dialProxy(t, p)
	rc.send("GET /relative HTTP/1.1\r\nHost: docs.example\r\n" + authLine(t, c) + "\r\n")
	if resp, body := rc.read("GET"); resp.StatusCode != http.StatusBadRequest || !strings.Contains(body, "absolute http:// requests") {
		t.Errorf("origin-form request: %d %q", resp.StatusCode, body)
	}
}

// A server connection the server closed while idle is not used for the
// next command's request, one with a body included; a request without a
// body that a kept connection drops unanswered is sent again on a new one.
func TestKeptServerConnectionsTheServerClosed(t *testing.T) {
	var mu sync.Mutex
	conns := 0
	addr := rawServer(t, func(c net.Conn, br *bufio.Reader) {
		mu.Lock()
		conns++
		n := conns
		mu.Unlock()
		r, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		io.Copy(io.Discard, r.Body)
		fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\n%d", n)
		if r.URL.Path == "/drop-next" {
			http.ReadRequest(br) // and closes without an answer
		} // else closes at once, though the answer said keep-alive
	})
	p := startProxy(t, map[string]string{"docs.example:80": addr})
	c := p.Open(func(string) bool { return true })
	exchange := func(rc *rawClient, req, want string) {
		t.Helper()
		rc.send(req)
		if resp, body := rc.read("GET"); resp.StatusCode != 200 || body != want {
			t.Fatalf("%.30q: %d %q, want the answer of server connection %s", req, resp.StatusCode, body, want)
		}
	}
	get := func(path string) string {
		return "GET http://docs.example" + path + " HTTP/1.1\r\nHost: docs.example\r\n" + authLine(t, c) + "\r\n"
	}
	rc := dialProxy(t, p)
	exchange(rc, get("/"), "1")
	rc.c.Close()
	time.Sleep(50 * time.Millisecond) // the server's close arrives
	rc = dialProxy(t, p)
	exchange(rc, "POST http://docs.example/ HTTP/1.1\r\nHost: docs.example\r\nContent-Length: 4\r\n"+authLine(t, c)+"\r\nbody", "2")

	rc = dialProxy(t, p)
	exchange(rc, get("/drop-next"), "3")
	exchange(rc, get("/"), "4")
}

// A client whose request's head does not arrive within the header timeout,
// or that sends no next request within the idle timeout, is hung up on.
func TestSlowAndIdleClientsAreHungUp(t *testing.T) {
	defer func(was timeouts) { clientTimeouts = was }(clientTimeouts)
	clientTimeouts = timeouts{header: 300 * time.Millisecond, idle: 1500 * time.Millisecond}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	t.Cleanup(s.Close)
	p := startProxy(t, map[string]string{"docs.example:80": s.Listener.Addr().String()})
	c := p.Open(func(string) bool { return true })

	slow := dialProxy(t, p)
	slow.send("GET http://docs.example/ HTTP/1.1\r\nHost: docs.exa")
	idle := dialProxy(t, p)
	idle.send("GET http://docs.example/ HTTP/1.1\r\nHost: docs.example\r\n" + authLine(t, c) + "\r\n")
	if resp, body := idle.read("GET"); resp.StatusCode != 200 || body != "ok" {
		t.Fatalf("%d %q", resp.StatusCode, body)
	}
	time.Sleep(600 * time.Millisecond) // past the header timeout: the idle one is still served
	idle.send("GET http://docs.example/ HTTP/1.1\r\nHost: docs.example\r\n" + authLine(t, c) + "\r\n")
	if resp, body := idle.read("GET"); resp.StatusCode != 200 || body != "ok" {
		t.Fatalf("after a pause shorter than the idle timeout: %d %q", resp.StatusCode, body)
	}
	if !slow.closed() {
		t.Error("a request head that does not end kept its connection")
	}
	if !idle.closed() {
		t.Error("an idle connection was kept past the idle timeout")
	}
}

// Close ends the connections the proxy carries, tunnels included.
func TestCloseEndsTunnels(t *testing.T) {
	addr := rawServer(t, func(c net.Conn, br *bufio.Reader) { io.Copy(io.Discard, br) })
	p, err := Start(Options{Dial: hosts(map[string]string{"docs.example:443": addr})})
	if err != nil {
		t.Fatal(err)
	}
	c := p.Open(func(string) bool { return true })
	rc := dialProxy(t, p)
	rc.send("CONNECT docs.example:443 HTTP/1.1\r\nHost: docs.example:443\r\n" + authLine(t, c) + "\r\n")
	if resp, err := http.ReadResponse(rc.br, &http.Request{Method: "CONNECT"}); err != nil || resp.StatusCode != 200 {
		t.Fatalf("CONNECT: %v %v", resp, err)
	}
	p.Close()
	if !rc.closed() {
		t.Fatal("the tunnel outlived the proxy")
	}
}
