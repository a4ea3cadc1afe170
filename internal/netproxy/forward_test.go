package netproxy

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

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
