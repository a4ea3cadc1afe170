package netproxy

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// conn is one client connection: its requests, read one after another,
// and the server the last plain request went to.
type conn struct {
	p    *Proxy
	as   *Call // the identity of a request without one (Endpoint)
	c    net.Conn
	head headLimit
	br   *bufio.Reader // c through head
	bw   *bufio.Writer // c
	up   *upstream     // nil until a plain request, or after a failure
	// linger: the connection ends after an answer to a request whose rest
	// was not read.
	linger bool
}

// upstream is a plain request's server connection, kept for the next
// request to the same host:port.
type upstream struct {
	addr string
	c    net.Conn
	head headLimit
	br   *bufio.Reader // c through head
	bw   *bufio.Writer
}

// serve answers c's requests until one ends the connection; a request
// without an identity counts as as's (nil: refused).
func (p *Proxy) serve(c net.Conn, as *Call) {
	cn := &conn{p: p, c: c, as: as, head: headLimit{r: c, n: -1}}
	cn.br = bufio.NewReaderSize(&cn.head, 8<<10)
	// Room for an answer's head and what the server's reader holds after
	// it (8 KiB at most): one write.
	cn.bw = bufio.NewWriterSize(c, 16<<10)
	defer func() {
		cn.keepUpstream()
		if cn.linger {
			cn.lingerClose()
		}
		p.release(c)
	}()
	for first := true; ; first = false {
		r, err := cn.readRequest(first)
		if err != nil {
			cn.malformed(err)
			return
		}
		if !cn.answer(r) {
			return
		}
	}
}

// errHeadTooLarge: a head is over its limit.
var errHeadTooLarge = errors.New("head too large")

// headLimit reads r, at most n bytes while n >= 0.
type headLimit struct {
	r io.Reader
	n int64
}

func (l *headLimit) Read(b []byte) (int, error) {
	if l.n == 0 {
		return 0, errHeadTooLarge
	}
	if l.n > 0 && int64(len(b)) > l.n {
		b = b[:l.n]
	}
	n, err := l.r.Read(b)
	if l.n > 0 {
		l.n -= int64(n)
	}
	return n, err
}

// readRequest reads the next request's head: the first within the
// header timeout, a later one's first byte within the idle timeout and the
// rest within the header timeout.
func (cn *conn) readRequest(first bool) (*http.Request, error) {
	if !first {
		cn.c.SetReadDeadline(time.Now().Add(cn.p.limits.idle))
		if _, err := cn.br.Peek(1); err != nil {
			return nil, err
		}
	}
	cn.c.SetReadDeadline(time.Now().Add(cn.p.limits.header))
	cn.head.n = maxHeaderBytes
	r, err := http.ReadRequest(cn.br)
	cn.head.n = -1
	cn.c.SetReadDeadline(time.Time{})
	return r, err
}

// malformed answers a request that could not be read, unless the client
// left or was too slow, and the connection ends.
func (cn *conn) malformed(err error) {
	var ne net.Error
	switch {
	case errors.Is(err, io.EOF) || errors.Is(err, net.ErrClosed) || errors.As(err, &ne) && ne.Timeout():
	case errors.Is(err, errHeadTooLarge):
		cn.reply(nil, http.StatusRequestHeaderFieldsTooLarge, "Gatehouse's network proxy takes request heads up to 1 MiB", true)
	default:
		cn.reply(nil, http.StatusBadRequest, "Gatehouse's network proxy could not read the request: "+err.Error(), true)
	}
}

// answer checks r's identity and domain and serves it; false when the
// connection ends.
func (cn *conn) answer(r *http.Request) bool {
	c := cn.p.call(r)
	if c == nil {
		c = cn.as
	}
	if c == nil {
		return cn.reply(r, http.StatusProxyAuthRequired, "Gatehouse's network proxy serves the commands it started only", false,
			"Proxy-Authenticate", `Basic realm="gatehouse"`)
	}
	host := r.URL.Host
	if r.Method == http.MethodConnect {
		host = r.Host
	}
	if r.Method != http.MethodConnect && (r.URL.Scheme != "http" || host == "") {
		return cn.reply(r, http.StatusBadRequest, "Gatehouse's network proxy takes CONNECT and absolute http:// requests", false)
	}
	domain := Normalize(host)
	if !c.allow(domain) {
		c.note(&c.refused, domain)
		return cn.reply(r, http.StatusForbidden, Refusal(domain), false, RefusedHeader, domain)
	}
	c.note(&c.reached, domain)
	if r.Method == http.MethodConnect {
		cn.tunnel(r, hostPort(host, "443"))
		return false
	}
	return cn.forward(r)
}

// hostPort is host with defPort when it names none.
func hostPort(host, defPort string) string {
	if _, _, err := net.SplitHostPort(host); err == nil {
		return host
	}
	return net.JoinHostPort(strings.Trim(host, "[]"), defPort)
}

// reply answers r (nil: a request that could not be read) with the
// proxy's own plain-text response and extra header pairs; false when the
// connection ends: on close, or when r's body was not read.
func (cn *conn) reply(r *http.Request, code int, msg string, close bool, header ...string) bool {
	close = close || r == nil || r.Close || r.ContentLength != 0
	w := cn.bw
	w.WriteString("HTTP/1.1 " + strconv.Itoa(code) + " " + http.StatusText(code) + "\r\n" +
		"Content-Type: text/plain; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n")
	for i := 0; i+1 < len(header); i += 2 {
		w.WriteString(header[i] + ": " + header[i+1] + "\r\n")
	}
	w.WriteString("Content-Length: " + strconv.Itoa(len(msg)+1) + "\r\n")
	if close {
		w.WriteString("Connection: close\r\n")
	}
	w.WriteString("\r\n")
	if r == nil || r.Method != http.MethodHead {
		w.WriteString(msg + "\n")
	}
	cn.linger = close
	return w.Flush() == nil && !close
}

// lingerClose ends the writing side and reads what the client still
// sends for a while: closing with bytes unread resets the connection,
// which can lose the answer before the client read it.
func (cn *conn) lingerClose() {
	if tc, ok := cn.c.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
	}
	cn.c.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	io.CopyN(io.Discard, cn.c, maxHeaderBytes)
}

// tunnel answers CONNECT: dial, 200, then copy both ways until both
// sides are done.
func (cn *conn) tunnel(r *http.Request, addr string) {
	up, err := cn.p.dialUp(addr)
	if err != nil {
		cn.reply(r, http.StatusBadGateway, "Gatehouse's network proxy could not reach "+addr+": "+err.Error(), true)
		return
	}
	defer cn.p.release(up)
	if _, err := io.WriteString(cn.c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	both(cn.c, cn.br, up, nil)
}

// both copies a's bytes (first those ar holds) to b and b's (after br's)
// to a until each side is done, each with its writing side closed after.
// Should a copy fail, both connections are closed, so the other ends too.
func both(a net.Conn, ar *bufio.Reader, b net.Conn, br *bufio.Reader) {
	done := make(chan struct{})
	go func() { pipe(b, a, ar); close(done) }()
	pipe(a, b, br)
	<-done
}

// Relay copies each connection's bytes to the other until both are done
// (each writing side closed after its copy), then closes both: a forward
// between two TCP connections (spliced), as a CONNECT tunnel is.
func Relay(a, b net.Conn) {
	both(a, nil, b, nil)
	a.Close()
	b.Close()
}

// pipe copies src to dst (first what buf holds of it), then closes dst's
// writing side; when the copy fails, it closes both.
func pipe(dst, src net.Conn, buf *bufio.Reader) {
	_, err := drain(dst, buf, -1)
	if err == nil {
		// Between two TCP connections io.Copy splices.
		_, err = io.Copy(dst, src)
	}
	if err != nil {
		dst.Close()
		src.Close()
		return
	}
	if tc, ok := dst.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
	} else {
		dst.Close()
	}
}

// drain writes to w at most max bytes (max < 0: all) that buf holds
// (nil: none) and returns how many.
func drain(w io.Writer, buf *bufio.Reader, max int64) (int64, error) {
	if buf == nil {
		return 0, nil
	}
	n := int64(buf.Buffered())
	if max >= 0 {
		n = min(n, max)
	}
	if n == 0 {
		return 0, nil
	}
	b, _ := buf.Peek(int(n))
	_, err := w.Write(b)
	buf.Discard(int(n))
	return n, err
}
