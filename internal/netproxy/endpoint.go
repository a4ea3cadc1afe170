package netproxy

import (
	"fmt"
	"net"
	"strconv"
)

// Endpoint is a port of the proxy of its own whose requests, carrying no
// user name and password, count as one identity's: for a program that
// cannot send a proxy's credentials, as Chromium cannot with
// --proxy-server (a browser MCP server the user runs). Anything on this
// machine can send through its port, so it is no boundary: it is opened
// for a program the user runs unconfined anyway, which could reach the
// network directly, to hold its pages to the allow-list. A request that
// does carry an identity is that identity's, as on the main port.
type Endpoint struct {
	*Call
	ln net.Listener
}

// Endpoint opens a port whose requests may reach the domains allow lets
// through (asked on every request).
func (p *Proxy) Endpoint(allow func(domain string) bool) (*Endpoint, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("network proxy: %w", err)
	}
	e := &Endpoint{Call: p.Open(allow), ln: ln}
	go p.acceptAs(ln, e.Call)
	return e, nil
}

// URL is the endpoint's address, without credentials.
func (e *Endpoint) URL() string {
	return "http://127.0.0.1:" + strconv.Itoa(e.ln.Addr().(*net.TCPAddr).Port)
}

// Close stops the port and ends its identity; connections carried stay
// until the proxy closes.
func (e *Endpoint) Close() {
	e.ln.Close()
	e.Call.Close()
}
