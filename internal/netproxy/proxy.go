// Package netproxy is the filtering proxy the app runs for confined
// commands in the network's allow-list mode: HTTP CONNECT (https, and
// anything else tunnelled) and plain HTTP, on a loopback port. Each command
// gets an identity of its own (Open: a user name and password in the proxy
// URL, which curl, npm, pip, git and go send with every request), so the
// domains it reached and those refused are told on its own card; a domain
// not on the list is refused with 403 and a message naming it and the
// setting.
//
// # How commands reach it
//
// With namespaces, a confined command runs in its session's network
// namespace (loopback only), where the proxy's port is bridged in and the
// session's servers listen (see package sandbox, The session's network):
// nothing else is reachable, by address. Where that namespace cannot be
// made (Landlock alone, no nsenter), Landlock (ABI 4+) refuses every TCP
// connect but to the proxy's port and to the ports the session's own
// processes listen on when the command starts, on any address: another
// host on one of those ports stays reachable given its address (no DNS:
// UDP is refused and the proxy resolves names), which the Sandbox line
// says. seccomp refuses every other kind of inet socket (MPTCP, UDP,
// SCTP, raw) in every layer set alike (sandbox.Policy.ProxyPort).
//
// Names resolve at the proxy, which refuses addresses of this machine
// (loopback, unspecified), link-local ones (cloud metadata included) and
// multicast; private networks stay reachable for a listed domain (a
// company registry). The session's own servers are reached directly
// (NO_PROXY holds localhost), not through the proxy.
//
// # How it serves
//
// The proxy reads its connections itself (http.ReadRequest on each,
// one after another: keep-alive) rather than through http.Server and
// httputil.ReverseProxy, whose goroutine hops (server, transport, dial)
// added about 0.4 ms before a response's first byte. Every request on a
// connection is checked (identity, then domain) and recorded on its own.
// A plain http:// request goes to its server in origin-form without the
// hop-by-hop headers and the proxy's credentials. Its server connection is
// kept for the next request to the same host and port, on the same client
// connection or, once that ended, another command's (idlePool): curl and
// most tools open one connection per run. A body of known length (either
// way), the data of a chunked one and a CONNECT tunnel move between the
// two TCP connections with splice(2), not through this process's memory.
package netproxy

import (
	"context"
	"errors"
	"fmt"
	"net"
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
	ln     net.Listener
	dial   func(ctx context.Context, network, addr string) (net.Conn, error)
	ctx    context.Context // ends at Close: dials in flight give up
	cancel context.CancelFunc
	limits timeouts

	mu    sync.Mutex
	calls map[string]*Call // by user name
	next  int

	connMu sync.Mutex
	conns  map[net.Conn]struct{} // both sides of every connection carried; nil once closed

	idle idlePool // server connections between requests
}

// timeouts of a client connection: its request's head must arrive within
// header, the next request within idle of the last answer.
type timeouts struct{ header, idle time.Duration }

// clientTimeouts are those of the proxies Start starts (a variable for
// the tests).
var clientTimeouts = timeouts{header: 30 * time.Second, idle: 2 * time.Minute}

// A dial gives up after dialTimeout. A request's head (or a body's
// trailer) takes at most maxHeaderBytes, a response's head
// maxResponseHead (http.Transport's default).
const (
	dialTimeout     = 30 * time.Second
	maxHeaderBytes  = 1 << 20
	maxResponseHead = 10 << 20
)

// Start listens on a loopback port and serves until Close.
func Start(o Options) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("network proxy: %w", err)
	}
	p := &Proxy{ln: ln, dial: o.Dial, limits: clientTimeouts, calls: map[string]*Call{}, conns: map[net.Conn]struct{}{}}
	if p.dial == nil {
		p.dial = (&Dialer{Timeout: 15 * time.Second}).DialContext
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	go p.accept(ln)
	return p, nil
}

// Serve serves the connections of ln as those of the proxy's own port
// until ln closes: the proxy's port inside a session's network namespace
// (package proc), with no relay between.
func (p *Proxy) Serve(ln net.Listener) { p.accept(ln) }

// accept serves each connection of ln in a goroutine of its own until
// ln closes; it waits out a shortage (too many open files) as
// http.Server does.
func (p *Proxy) accept(ln net.Listener) { p.acceptAs(ln, nil) }

// acceptAs is accept with requests that carry no identity counted as
// as's (nil: refused; see Endpoint).
func (p *Proxy) acceptAs(ln net.Listener, as *Call) {
	var wait time.Duration
	for {
		c, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			wait = min(max(2*wait, 5*time.Millisecond), time.Second)
			time.Sleep(wait)
			continue
		}
		wait = 0
		if p.track(c) {
			go p.serve(c, as)
		}
	}
}

// Port is the loopback port the proxy listens on.
func (p *Proxy) Port() int { return p.ln.Addr().(*net.TCPAddr).Port }

// Close stops the proxy and ends the connections it carries.
func (p *Proxy) Close() error {
	p.cancel()
	err := p.ln.Close()
	p.connMu.Lock()
	conns := p.conns
	p.conns = nil
	p.connMu.Unlock()
	for c := range conns {
		c.Close()
	}
	return err
}

// track notes a connection Close ends; false (and c closed) once the
// proxy is closed.
func (p *Proxy) track(c net.Conn) bool {
	p.connMu.Lock()
	defer p.connMu.Unlock()
	if p.conns == nil {
		c.Close()
		return false
	}
	p.conns[c] = struct{}{}
	return true
}

// release closes a connection track noted.
func (p *Proxy) release(c net.Conn) {
	p.connMu.Lock()
	delete(p.conns, c)
	p.connMu.Unlock()
	c.Close()
}

func (p *Proxy) releaseUp(up *upstream) { p.release(up.c) }

// dialUp connects to an allowed request's host:port.
func (p *Proxy) dialUp(addr string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(p.ctx, dialTimeout)
	defer cancel()
	c, err := p.dial(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if !p.track(c) {
		return nil, net.ErrClosed
	}
	return c, nil
}
