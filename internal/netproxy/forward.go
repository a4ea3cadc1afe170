package netproxy

import (
	"bufio"
	"io"
	"maps"
	"net"
	"net/http"
	"net/textproto"
	"slices"
	"strconv"
	"strings"
)

// forward sends a plain request to its server and the answer back; false
// when the connection ends.
func (cn *conn) forward(r *http.Request) bool {
	addr := hostPort(r.URL.Host, "80")
	for {
		reused, err := cn.upstreamTo(addr)
		if err == nil {
			if err = cn.send(r); err == nil {
				_, err = cn.up.br.Peek(1) // the answer began
			}
		}
		if err == nil {
			break
		}
		cn.dropUpstream()
		// A kept connection the server closed meanwhile: once more on a
		// new one, when the request is safe to send again (RFC 9110 9.2.2).
		if !reused || !idempotent(r) {
			return cn.reply(r, http.StatusBadGateway, "Gatehouse's network proxy could not reach "+r.URL.Host+": "+err.Error(), false)
		}
	}
	resp, err := cn.up.response(r)
	for err == nil && resp.StatusCode/100 == 1 && resp.StatusCode != http.StatusSwitchingProtocols {
		if r.ProtoAtLeast(1, 1) {
			cn.writeHead(resp, hopOnly, "")
			if err = cn.bw.Flush(); err != nil {
				cn.dropUpstream()
				return false
			}
		}
		resp, err = cn.up.response(r)
	}
	if err != nil {
		cn.dropUpstream()
		return cn.reply(r, http.StatusBadGateway, "Gatehouse's network proxy could not read "+r.URL.Host+"'s response: "+err.Error(), false)
	}
	if resp.StatusCode == http.StatusSwitchingProtocols {
		return cn.switchProtocols(r, resp)
	}
	return cn.relay(r, resp)
}

// response reads the head of the server's answer to r, at most
// maxResponseHead bytes.
func (up *upstream) response(r *http.Request) (*http.Response, error) {
	up.head.n = maxResponseHead
	resp, err := http.ReadResponse(up.br, r)
	up.head.n = -1
	return resp, err
}

// idempotent reports whether r may be sent twice: no body, and a method
// that means the same done once or twice.
func idempotent(r *http.Request) bool {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace:
		return r.ContentLength == 0
	}
	return false
}

// upstreamTo makes cn.up a connection to addr: the kept one (reused) or a
// new one.
func (cn *conn) upstreamTo(addr string) (reused bool, err error) {
	if cn.up != nil && cn.up.addr == addr && alive(cn.up.c) {
		return true, nil
	}
	cn.keepUpstream()
	if cn.up = cn.p.idle.take(addr, cn.p.releaseUp); cn.up != nil {
		return true, nil
	}
	c, err := cn.p.dialUp(addr)
	if err != nil {
		return false, err
	}
	cn.up = &upstream{addr: addr, c: c, head: headLimit{r: c, n: -1}, bw: bufio.NewWriterSize(c, 8<<10)}
	cn.up.br = bufio.NewReaderSize(&cn.up.head, 8<<10)
	return false, nil
}

// dropUpstream closes cn.up; keepUpstream puts it in the idle pool (it
// is kept between requests only when its last answer was read to the end).
func (cn *conn) dropUpstream() {
	if cn.up != nil {
		cn.p.releaseUp(cn.up)
		cn.up = nil
	}
}

func (cn *conn) keepUpstream() {
	if cn.p.ctx.Err() != nil {
		cn.dropUpstream()
	}
	if cn.up != nil {
		cn.p.idle.put(cn.up, cn.p.releaseUp)
		cn.up = nil
	}
}

// send writes r to its server in origin-form, without hop-by-hop headers
// and the proxy's credentials, then its body (the client told to go on
// when it waits for that).
func (cn *conn) send(r *http.Request) error {
	w := cn.up.bw
	w.WriteString(r.Method + " " + r.URL.RequestURI() + " HTTP/1.1\r\nHost: " + r.Host + "\r\n")
	r.Header.WriteSubset(w, exclusions(r.Header, hopAndBody))
	if u := upgrade(r.Header); u != "" {
		w.WriteString("Connection: Upgrade\r\nUpgrade: " + u + "\r\n")
	} else if r.Close {
		w.WriteString("Connection: close\r\n")
	}
	chunked := len(r.TransferEncoding) > 0
	switch {
	case chunked:
		w.WriteString("Transfer-Encoding: chunked\r\n")
		if len(r.Trailer) > 0 {
			w.WriteString("Trailer: " + strings.Join(slices.Sorted(maps.Keys(r.Trailer)), ", ") + "\r\n")
		}
	case r.ContentLength > 0 || r.Header.Get("Content-Length") != "":
		w.WriteString("Content-Length: " + strconv.FormatInt(r.ContentLength, 10) + "\r\n")
	}
	w.WriteString("\r\n")
	if r.ContentLength != 0 && r.ProtoAtLeast(1, 1) && strings.EqualFold(r.Header.Get("Expect"), "100-continue") {
		cn.bw.WriteString("HTTP/1.1 100 Continue\r\n\r\n")
		if err := cn.bw.Flush(); err != nil {
			return err
		}
	}
	switch {
	case chunked:
		return chunks(cn.up.c, w, cn.c, cn.br, true)
	case r.ContentLength > 0:
		return exactly(cn.up.c, w, cn.c, cn.br, r.ContentLength)
	}
	return w.Flush()
}

// relay writes resp's head and body to the client; false when the
// connection ends.
func (cn *conn) relay(r *http.Request, resp *http.Response) bool {
	up := cn.up
	keepUp := !resp.Close && !r.Close
	closeAfter := r.Close
	code := resp.StatusCode
	var err error
	switch {
	case r.Method == http.MethodHead || code == http.StatusNoContent || code == http.StatusNotModified:
		cn.writeHead(resp, hopOnly, connection(r, closeAfter))
		err = cn.bw.Flush()
	case len(resp.TransferEncoding) > 0 && r.ProtoAtLeast(1, 1):
		extra := "Transfer-Encoding: chunked\r\n"
		if len(resp.Trailer) > 0 {
			extra += "Trailer: " + strings.Join(slices.Sorted(maps.Keys(resp.Trailer)), ", ") + "\r\n"
		}
		cn.writeHead(resp, hopAndBody, extra+connection(r, closeAfter))
		err = chunks(cn.c, cn.bw, up.c, up.br, true)
	case len(resp.TransferEncoding) > 0: // to an HTTP/1.0 client: decoded, to the end
		closeAfter = true
		cn.writeHead(resp, hopAndBody, connection(r, closeAfter))
		err = chunks(cn.c, cn.bw, up.c, up.br, false)
	case resp.ContentLength >= 0:
		cn.writeHead(resp, hopAndBody, "Content-Length: "+strconv.FormatInt(resp.ContentLength, 10)+"\r\n"+connection(r, closeAfter))
		err = exactly(cn.c, cn.bw, up.c, up.br, resp.ContentLength)
	default: // no length: the body ends with the server's connection
		keepUp, closeAfter = false, true
		cn.writeHead(resp, hopAndBody, connection(r, closeAfter))
		if _, err = drain(cn.bw, up.br, -1); err == nil {
			if err = cn.bw.Flush(); err == nil {
				_, err = io.Copy(cn.c, up.c)
			}
		}
	}
	if err != nil || !keepUp {
		cn.dropUpstream()
	}
	return err == nil && !closeAfter
}

// switchProtocols relays a 101 to the protocol the client asked for, then
// the bytes both ways until both sides are done; the connection ends.
func (cn *conn) switchProtocols(r *http.Request, resp *http.Response) bool {
	asked, got := upgrade(r.Header), upgrade(resp.Header)
	if asked == "" || !strings.EqualFold(asked, got) {
		cn.dropUpstream()
		return cn.reply(r, http.StatusBadGateway, "Gatehouse's network proxy: "+r.URL.Host+" switched to protocol "+strconv.Quote(got)+", not the one asked for", true)
	}
	cn.writeHead(resp, hopOnly, "Connection: Upgrade\r\nUpgrade: "+got+"\r\n")
	if cn.bw.Flush() == nil {
		both(cn.c, cn.br, cn.up.c, cn.up.br)
	}
	cn.dropUpstream()
	return false
}

// writeHead writes resp's status line and its headers but those in skip
// (and those its Connection header names), then the extra lines.
func (cn *conn) writeHead(resp *http.Response, skip map[string]bool, extra string) {
	code := resp.StatusCode
	_, reason, _ := strings.Cut(resp.Status, " ")
	if reason == "" {
		reason = http.StatusText(code)
	}
	cn.bw.WriteString("HTTP/1.1 " + strconv.Itoa(code) + " " + reason + "\r\n")
	resp.Header.WriteSubset(cn.bw, exclusions(resp.Header, skip))
	cn.bw.WriteString(extra + "\r\n")
}

// connection is the Connection line of an answer to r.
func connection(r *http.Request, closeAfter bool) string {
	switch {
	case closeAfter:
		return "Connection: close\r\n"
	case !r.ProtoAtLeast(1, 1):
		return "Connection: keep-alive\r\n"
	}
	return ""
}

// exactly writes n bytes of src to dst: first those buf holds, through w
// (flushed after), then the rest straight from src, which splice(2)
// moves between two TCP connections.
func exactly(dst net.Conn, w *bufio.Writer, src net.Conn, buf *bufio.Reader, n int64) error {
	held, err := drain(w, buf, n)
	if err == nil {
		err = w.Flush()
	}
	if err != nil || held == n {
		return err
	}
	copied, err := io.Copy(dst, &io.LimitedReader{R: src, N: n - held})
	if err == nil && copied < n-held {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// upgrade is the protocol h's Upgrade header asks for when its Connection
// header names it, else "".
func upgrade(h http.Header) string {
	for _, v := range h["Connection"] {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), "upgrade") {
				return h.Get("Upgrade")
			}
		}
	}
	return ""
}

// The headers a message goes on without: hop-by-hop ones (RFC 9110
// 7.6.1), the proxy's credentials, and those the proxy writes itself.
var (
	hopOnly = map[string]bool{"Connection": true, "Proxy-Connection": true, "Keep-Alive": true, "Proxy-Authenticate": true,
		"Proxy-Authorization": true, "Te": true, "Trailer": true, "Transfer-Encoding": true, "Upgrade": true, "Host": true}
	hopAndBody = func() map[string]bool {
		m := maps.Clone(hopOnly)
		m["Content-Length"], m["Expect"] = true, true
		return m
	}()
)

// exclusions is skip and the headers h's Connection header names.
func exclusions(h http.Header, skip map[string]bool) map[string]bool {
	out, cloned := skip, false
	for _, v := range h["Connection"] {
		for _, t := range strings.Split(v, ",") {
			if k := textproto.CanonicalMIMEHeaderKey(strings.TrimSpace(t)); k != "" && !out[k] {
				if !cloned {
					out, cloned = maps.Clone(skip), true
				}
				out[k] = true
			}
		}
	}
	return out
}
