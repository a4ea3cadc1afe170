// Package netproxy is the filtering proxy the app runs for confined
// commands in the network's allow-list mode: HTTP CONNECT (https, and
// anything else tunnelled) and plain HTTP, on a loopback port. Each command
// gets an identity of its own (Open: a user name and password in the proxy
// URL, which curl, npm, pip, git and go send with every request), so the
// domains it reached and those refused are told on its own card; a domain
// not on the list is refused with 403 and a message naming it and the
// setting.
//
// # Why Landlock's port rule, not a network namespace
//
// In allow-list mode a confined command keeps the host's network
// namespace; Landlock (ABI 4+) refuses every TCP connect but to the
// proxy's port and to the ports the session's own processes listen on at
// the time the command starts, and seccomp refuses every other kind of
// inet socket (MPTCP, UDP, SCTP, raw), in every layer set alike
// (sandbox.Policy.ProxyPort). The other way, a network namespace per
// command with the proxy reached through a bind-mounted Unix socket and a
// forwarder, confines the address too, but a dev server the command
// starts would then listen inside that namespace: neither the user's
// browser (the process panel's port links) nor the session's later
// commands (`curl localhost:3000`) could reach it without a port forwarder
// per listening socket, and the panel would have to read each namespace's
// socket table. The cost of the chosen way: Landlock's rule is a port, not
// an address, so a command could reach another host on the proxy's port
// (random, per run) or on a port a session server listens on, given its
// address (no DNS: UDP is refused and the proxy resolves names); commands
// already ask before running in safe mode.
//
// Names resolve at the proxy, which refuses addresses of this machine
// (loopback, unspecified), link-local ones (cloud metadata included) and
// multicast; private networks stay reachable for a listed domain (a
// company registry). The session's own servers are reached directly
// (NO_PROXY holds localhost), not through the proxy.
package netproxy

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options configure a Proxy.
type Options struct {
	// Dial connects to an allowed request's host:port. nil: resolve the
	// name and dial a checked address (Dialer). Only Go code sets it (tests
	// reach their own server on loopback through it); nothing a command
	// sends changes it.
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// Proxy is a running proxy. Its methods are safe for concurrent use.
type Proxy struct {
	ln   net.Listener
	srv  *http.Server
	dial func(ctx context.Context, network, addr string) (net.Conn, error)
	rp   *httputil.ReverseProxy

	mu    sync.Mutex
	calls map[string]*Call // by user name
	next  int
}

// Start listens on a loopback port and serves until Close.
func Start(o Options) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("network proxy: %w", err)
	}
	p := &Proxy{ln: ln, dial: o.Dial, calls: map[string]*Call{}}
	if p.dial == nil {
		p.dial = (&Dialer{Timeout: 15 * time.Second}).DialContext
	}
	tr := &http.Transport{Proxy: nil, DialContext: p.dial, MaxIdleConns: 32, IdleConnTimeout: 30 * time.Second,
		TLSHandshakeTimeout: 15 * time.Second, ReadBufferSize: 64 << 10, WriteBufferSize: 64 << 10}
	p.rp = &httputil.ReverseProxy{Transport: tr, BufferPool: copyBuffers{}, Rewrite: func(pr *httputil.ProxyRequest) {
		pr.Out.URL = pr.In.URL // absolute-form: the request names its server
		pr.Out.Host = pr.In.Host
	}, ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
		http.Error(w, "Gatehouse's network proxy could not reach "+r.URL.Host+": "+err.Error(), http.StatusBadGateway)
	}}
	p.srv = &http.Server{Handler: p, ReadHeaderTimeout: 30 * time.Second, IdleTimeout: 2 * time.Minute}
	go p.srv.Serve(ln)
	return p, nil
}

// Port is the loopback port the proxy listens on.
func (p *Proxy) Port() int { return p.ln.Addr().(*net.TCPAddr).Port }

// Close stops the proxy and ends the connections it carries.
func (p *Proxy) Close() error { return p.srv.Close() }

// Call is one command's identity at the proxy: what it may reach and what
// it reached. Close it when the command ended.
type Call struct {
	p          *Proxy
	user, pass string
	allow      func(domain string) bool

	mu               sync.Mutex
	reached, refused []string
}

// Open gives a command an identity; allow says whether it may reach a
// domain (asked on every request, so a domain allowed meanwhile counts).
func (p *Proxy) Open(allow func(domain string) bool) *Call {
	var b [16]byte
	rand.Read(b[:])
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next++
	c := &Call{p: p, user: "cmd" + strconv.Itoa(p.next), pass: hex.EncodeToString(b[:]), allow: allow}
	p.calls[c.user] = c
	return c
}

// URL is the proxy's URL with the call's credentials.
func (c *Call) URL() string {
	return "http://" + c.user + ":" + c.pass + "@127.0.0.1:" + strconv.Itoa(c.p.Port())
}

// Env are the variables that send a command's web traffic through the
// proxy (HTTP_PROXY, HTTPS_PROXY and ALL_PROXY, each in both cases), and
// keep this machine's own servers direct (NO_PROXY).
func (c *Call) Env() []string {
	u := c.URL()
	var env []string
	for _, n := range []string{"http_proxy", "https_proxy", "all_proxy"} {
		env = append(env, n+"="+u, strings.ToUpper(n)+"="+u)
	}
	return append(env, "no_proxy="+noProxy, "NO_PROXY="+noProxy)
}

const noProxy = "localhost,127.0.0.1,::1"

// Domains are the domains the command reached and those refused, sorted.
func (c *Call) Domains() (reached, refused []string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.reached), slices.Clone(c.refused)
}

// Close ends the identity: requests with it are refused from now on.
func (c *Call) Close() {
	c.p.mu.Lock()
	delete(c.p.calls, c.user)
	c.p.mu.Unlock()
}

func (c *Call) note(list *[]string, domain string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i, found := slices.BinarySearch(*list, domain); !found {
		*list = slices.Insert(*list, i, domain)
	}
}

// call finds the identity of r's Proxy-Authorization.
func (p *Proxy) call(r *http.Request) *Call {
	user, pass, ok := proxyAuth(r.Header.Get("Proxy-Authorization"))
	if !ok {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if c := p.calls[user]; c != nil && c.pass == pass {
		return c
	}
	return nil
}

func proxyAuth(h string) (user, pass string, ok bool) {
	enc, ok := strings.CutPrefix(h, "Basic ")
	if !ok {
		return "", "", false
	}
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(enc))
	if err != nil {
		return "", "", false
	}
	return strings.Cut(string(b), ":")
}

// RefusedHeader names the domain a 403 of the proxy refused.
const RefusedHeader = "X-Gatehouse-Refused"

// Refusal is the proxy's words for a refused domain.
func Refusal(domain string) string {
	return "Gatehouse's network proxy refused " + domain + ": it is not on the network allow-list (Settings → Network). Only the user can allow it."
}

func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := p.call(r)
	if c == nil {
		w.Header().Set("Proxy-Authenticate", `Basic realm="gatehouse"`)
		http.Error(w, "Gatehouse's network proxy serves the commands it started only", http.StatusProxyAuthRequired)
		return
	}
	host := r.URL.Host
	if r.Method == http.MethodConnect {
		host = r.Host
	}
	if r.Method != http.MethodConnect && (r.URL.Scheme != "http" || host == "") {
		http.Error(w, "Gatehouse's network proxy takes CONNECT and absolute http:// requests", http.StatusBadRequest)
		return
	}
	domain := Normalize(host)
	if !c.allow(domain) {
		c.note(&c.refused, domain)
		w.Header().Set(RefusedHeader, domain)
		http.Error(w, Refusal(domain), http.StatusForbidden)
		return
	}
	c.note(&c.reached, domain)
	if r.Method != http.MethodConnect {
		p.rp.ServeHTTP(w, r)
		return
	}
	if _, _, err := net.SplitHostPort(host); err != nil {
		host = net.JoinHostPort(host, "443")
	}
	p.tunnel(w, r, host)
}

// tunnel answers CONNECT: dial, 200, then copy both ways until either
// side is done.
func (p *Proxy) tunnel(w http.ResponseWriter, r *http.Request, host string) {
	up, err := p.dial(r.Context(), "tcp", host)
	if err != nil {
		http.Error(w, "Gatehouse's network proxy could not reach "+host+": "+err.Error(), http.StatusBadGateway)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "no tunnel over this connection", http.StatusInternalServerError)
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	if _, err := down.Write([]byte("HTTP/1.1 200 Connection established\r\n\r\n")); err != nil {
		up.Close()
		down.Close()
		return
	}
	down.SetDeadline(time.Time{})
	var from io.Reader = down
	if n := buf.Reader.Buffered(); n > 0 {
		from = io.MultiReader(io.LimitReader(buf.Reader, int64(n)), down)
	}
	done := make(chan struct{})
	go func() { pipe(up, from); close(done) }()
	pipe(down, up)
	<-done
	up.Close()
	down.Close()
}

// copyBuffers lends the plain-HTTP path 256 KiB copy buffers: a
// download moves in eight times fewer reads and writes than with the
// reverse proxy's own 32 KiB.
type copyBuffers struct{}

var copyPool = sync.Pool{New: func() any { return make([]byte, 256<<10) }}

func (copyBuffers) Get() []byte  { return copyPool.Get().([]byte) }
func (copyBuffers) Put(b []byte) { copyPool.Put(b) }

// pipe copies src to dst, then closes dst's writing side.
func pipe(dst net.Conn, src io.Reader) {
	io.Copy(dst, src)
	if tc, ok := dst.(interface{ CloseWrite() error }); ok {
		tc.CloseWrite()
	} else {
		dst.Close()
	}
}

// Dialer resolves a name and dials one of its addresses that is not this
// machine's, a link-local (cloud metadata) or a multicast one; the
// address dialed is the one checked.
type Dialer struct {
	Timeout time.Duration
}

// DialContext implements Options.Dial.
func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	nd := &net.Dialer{Timeout: d.Timeout}
	var errs []error
	for _, ip := range ips {
		ip = ip.Unmap()
		if why := local(ip); why != "" {
			return nil, fmt.Errorf("%s resolves to %s, %s: the proxy does not reach it", host, ip, why)
		}
	}
	for _, ip := range ips {
		c, err := nd.DialContext(ctx, network, net.JoinHostPort(ip.Unmap().String(), port))
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

// local says why a is not reached through the proxy, "" when it is.
func local(a netip.Addr) string {
	switch {
	case a.IsLoopback() || a.IsUnspecified():
		return "an address of this machine"
	case a.IsLinkLocalUnicast():
		return "a link-local address (cloud metadata lives there)"
	case a.IsMulticast():
		return "a multicast address"
	}
	return ""
}
