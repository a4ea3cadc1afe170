package netproxy

import (
	"bufio"
	"bytes"
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
		rc.send("GET " + u + " HTTP/1.1\r\nHost: " + strings.TrimPrefix(u, "http://") + "\r\n" + authLine(t, c) + "\r\n")
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

// The server gets the request in origin-form without the proxy's
// credentials and the hop-by-hop headers (those Connection names too);
// the other headers and the Host go through.
func TestServerNeverSeesTheProxysCredentials(t *testing.T) {
	got := make(chan *http.Request, 1)
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got <- r }))
	t.Cleanup(s.Close)
	p := startProxy(t, map[string]string{"docs.example:8080": s.Listener.Addr().String()})
	c := p.Open(func(string) bool { return true })
	rc := dialProxy(t, p)
	rc.send("GET http://docs.example:8080/path?q=1 HTTP/1.1\r\nHost: elsewhere.example\r\n" + authLine(t, c) +
		"Proxy-Connection: keep-alive\r\nConnection: X-Hop\r\nX-Hop: 1\r\nKeep-Alive: timeout=5\r\nX-Kept: yes\r\nUser-Agent: curl/8\r\n\r\n")
	if resp, _ := rc.read("GET"); resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
	r := <-got
	if r.RequestURI != "/path?q=1" || r.Host != "docs.example:8080" {
		t.Errorf("request line %q, Host %q: want origin-form and the URL's host", r.RequestURI, r.Host)
	}
	for _, h := range []string{"Proxy-Authorization", "Proxy-Connection", "X-Hop", "Keep-Alive", "Connection"} {
		if v, ok := r.Header[h]; ok {
			t.Errorf("the server got %s: %q", h, v)
		}
	}
	if r.Header.Get("X-Kept") != "yes" || r.Header.Get("User-Agent") != "curl/8" {
		t.Errorf("the end-to-end headers did not arrive: %v", r.Header)
	}
}

// A chunked response arrives whole, chunk extensions dropped and trailer
// kept, a large chunk included; the connection serves the next request.
func TestChunkedResponse(t *testing.T) {
	big := bytes.Repeat([]byte("0123456789abcdef"), 40<<10) // 640 KiB: past every buffer
	addr := rawServer(t, func(c net.Conn, br *bufio.Reader) {
		for {
			if _, err := http.ReadRequest(br); err != nil {
				return
			}
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nTrailer: X-Sum\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n1\r\n \r\n%x\r\n%s\r\n0\r\nX-Sum: done\r\n\r\n", len(big), big)
		}
	})
	p := startProxy(t, map[string]string{"docs.example:80": addr})
	c := p.Open(func(string) bool { return true })
	rc := dialProxy(t, p)
	for i := range 2 {
		rc.send("GET http://docs.example/ HTTP/1.1\r\nHost: docs.example\r\n" + authLine(t, c) + "\r\n")
		resp, body := rc.read("GET")
		if resp.StatusCode != 200 || body != "hello "+string(big) || resp.Trailer.Get("X-Sum") != "done" || resp.ContentLength != -1 {
			t.Fatalf("request %d: %d, %d bytes (want %d), trailer %v, length %d", i, resp.StatusCode, len(body), 6+len(big), resp.Trailer, resp.ContentLength)
		}
	}
}

// A response with neither length nor chunks ends with its connection:
// the client gets it whole, then the proxy closes the client's.
func TestResponseWithoutLength(t *testing.T) {
	big := strings.Repeat("no length ", 30<<10)
	addr := rawServer(t, func(c net.Conn, br *bufio.Reader) {
		if _, err := http.ReadRequest(br); err == nil {
			io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n"+big)
		}
	})
	p := startProxy(t, map[string]string{"docs.example:80": addr})
	c := p.Open(func(string) bool { return true })
	rc := dialProxy(t, p)
	rc.send("GET http://docs.example/ HTTP/1.1\r\nHost: docs.example\r\n" + authLine(t, c) + "\r\n")
	resp, body := rc.read("GET")
	if resp.StatusCode != 200 || body != big || !resp.Close {
		t.Fatalf("%d, %d bytes (want %d), close %v", resp.StatusCode, len(body), len(big), resp.Close)
	}
	if !rc.closed() {
		t.Fatal("the proxy kept the connection open after a body that ends with it")
	}
}

// HEAD, 204 and 304 answers carry no body, whatever length they name: the
// next response on the connection is read right.
func TestAnswersWithoutBody(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/empty":
			w.WriteHeader(http.StatusNoContent)
		case "/same":
			w.WriteHeader(http.StatusNotModified)
		default:
			w.Header().Set("Content-Length", "12345")
			if r.Method != http.MethodHead {
				io.WriteString(w, strings.Repeat("x", 12345))
			}
		}
	}))
	t.Cleanup(s.Close)
	p := startProxy(t, map[string]string{"docs.example:80": s.Listener.Addr().String()})
	c := p.Open(func(string) bool { return true })
	rc := dialProxy(t, p)
	for _, step := range []struct {
		method, path string
		code         int
		length       string
	}{{"HEAD", "/", 200, "12345"}, {"GET", "/empty", 204, ""}, {"GET", "/same", 304, ""}, {"GET", "/", 200, "12345"}} {
		rc.send(step.method + " http://docs.example" + step.path + " HTTP/1.1\r\nHost: docs.example\r\n" + authLine(t, c) + "\r\n")
		resp, body := rc.read(step.method)
		if resp.StatusCode != step.code || resp.Header.Get("Content-Length") != step.length ||
			(step.method == "GET" && step.code == 200) != (body != "") {
			t.Fatalf("%s %s: %d, Content-Length %q, %d bytes", step.method, step.path, resp.StatusCode, resp.Header.Get("Content-Length"), len(body))
		}
	}
}

// A command uploads: a body of known length (after the proxy's 100
// Continue when asked for) and a chunked one reach the server whole.
func TestUploads(t *testing.T) {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		fmt.Fprintf(w, "%s %d %v %s expect=%q", r.Method, len(b), err, b[:min(len(b), 8)], r.Header.Get("Expect"))
	}))
	t.Cleanup(s.Close)
	p := startProxy(t, map[string]string{"docs.example:80": s.Listener.Addr().String()})
	c := p.Open(func(string) bool { return true })
	rc := dialProxy(t, p)
	body := "uploaded" + strings.Repeat("u", 300<<10)

	rc.send("POST http://docs.example/ HTTP/1.1\r\nHost: docs.example\r\n" + authLine(t, c) +
		"Content-Length: " + strconv.Itoa(len(body)) + "\r\nExpect: 100-continue\r\n\r\n")
	if resp, _ := rc.read("POST"); resp.StatusCode != http.StatusContinue {
		t.Fatalf("before the body: %d, want 100 Continue", resp.StatusCode)
	}
	rc.send(body)
	resp, got := rc.read("POST")
	if want := fmt.Sprintf("POST %d <nil> uploaded expect=\"\"", len(body)); resp.StatusCode != 200 || got != want {
		t.Fatalf("upload of known length: %d %q, want %q", resp.StatusCode, got, want)
	}

	rc.send("PUT http://docs.example/ HTTP/1.1\r\nHost: docs.example\r\n" + authLine(t, c) +
		"Transfer-Encoding: chunked\r\n\r\n8\r\nuploaded\r\n" + fmt.Sprintf("%x\r\n%s\r\n", 200<<10, strings.Repeat("c", 200<<10)) + "0\r\n\r\n")
	resp, got = rc.read("PUT")
	if want := fmt.Sprintf("PUT %d <nil> uploaded expect=\"\"", 8+200<<10); resp.StatusCode != 200 || got != want {
		t.Fatalf("chunked upload: %d %q, want %q", resp.StatusCode, got, want)
	}
}

// 1xx answers go to the client before the final one; a 101 switches the
// connection to the upgraded protocol, bytes both ways.
func TestInformationalAndUpgrade(t *testing.T) {
	addr := rawServer(t, func(c net.Conn, br *bufio.Reader) {
		r, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		if r.URL.Path == "/hints" {
			io.WriteString(c, "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
			return
		}
		if r.Header.Get("Upgrade") != "echo" || !strings.EqualFold(r.Header.Get("Connection"), "upgrade") {
			io.WriteString(c, "HTTP/1.1 400 Bad Request\r\nContent-Length: 10\r\n\r\nno upgrade")
			return
		}
		io.WriteString(c, "HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n")
		io.Copy(c, br) // echo until the client is done
	})
	p := startProxy(t, map[string]string{"docs.example:80": addr})
	c := p.Open(func(string) bool { return true })

	rc := dialProxy(t, p)
	rc.send("GET http://docs.example/hints HTTP/1.1\r\nHost: docs.example\r\n" + authLine(t, c) + "\r\n")
	if resp, _ := rc.read("GET"); resp.StatusCode != 103 || resp.Header.Get("Link") == "" {
		t.Fatalf("first answer %d %v, want 103 with its Link", resp.StatusCode, resp.Header)
	}
	if resp, body := rc.read("GET"); resp.StatusCode != 200 || body != "ok" {
		t.Fatalf("final answer %d %q", resp.StatusCode, body)
	}

	rc = dialProxy(t, p)
	rc.send("GET http://docs.example/ws HTTP/1.1\r\nHost: docs.example\r\nConnection: Upgrade\r\nUpgrade: echo\r\n" + authLine(t, c) + "\r\n")
	resp, err := http.ReadResponse(rc.br, &http.Request{Method: "GET"})
	if err != nil || resp.StatusCode != http.StatusSwitchingProtocols || resp.Header.Get("Upgrade") != "echo" {
		t.Fatalf("upgrade: %v %v", resp, err)
	}
	for _, msg := range []string{"ping", strings.Repeat("p", 100<<10)} {
		rc.send(msg)
		back := make([]byte, len(msg))
		if _, err := io.ReadFull(rc.br, back); err != nil || string(back) != msg {
			t.Fatalf("echo of %d bytes: %v, %d bytes back", len(msg), err, len(back))
		}
	}
	rc.c.(*net.TCPConn).CloseWrite()
	if !rc.closed() {
		t.Fatal("the upgraded connection did not end with both sides")
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

// A server whose answer's head never ends (over 10 MiB) gets the client a
// 502, not the proxy's memory; so does one that closes without an answer.
func TestServersThatDoNotAnswer(t *testing.T) {
	addr := rawServer(t, func(c net.Conn, br *bufio.Reader) {
		r, err := http.ReadRequest(br)
		if err != nil || r.URL.Path == "/none" {
			return
		}
		io.WriteString(c, "HTTP/1.1 200 OK\r\n")
		line := "X-Pad: " + strings.Repeat("p", 1000) + "\r\n"
		for { // until the proxy hangs up
			if _, err := io.WriteString(c, line); err != nil {
				return
			}
		}
	})
	p := startProxy(t, map[string]string{"docs.example:80": addr})
	c := p.Open(func(string) bool { return true })
	for path, want := range map[string]string{"/endless": "could not read docs.example's response: head too large",
		"/none": "could not reach docs.example: EOF"} {
		rc := dialProxy(t, p)
		rc.send("GET http://docs.example" + path + " HTTP/1.1\r\nHost: docs.example\r\n" + authLine(t, c) + "\r\n")
		if resp, body := rc.read("GET"); resp.StatusCode != http.StatusBadGateway || !strings.Contains(body, want) {
			t.Fatalf("%s: %d %.100q, want 502 and %q", path, resp.StatusCode, body, want)
		}
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
