//go:build unix

package proc

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"time"

	"gatehouse/internal/netproxy"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/wire"
)

// The session's network namespace, in the network's allow-list mode with
// namespaces (see sandbox/netns.go): it belongs to the registry (the
// session), not to a holder, so that the session's servers stay where its
// later commands reach them when a holder is replaced. The app bridges
// the proxy into it (a socket listening on the proxy's port inside, made
// by the keeper, relayed to the proxy) and forwards the ports its servers
// listen on (found by the port scan) from the host's loopback into it,
// for the user's browser and the panel's port links.
//
// Two sessions' servers on the same port: each listens in its own
// namespace, so both run; the host's port goes to the first one forwarded
// (or to the program of the user's that holds it), and the other session's
// server is not forwarded while the port is taken (each scan tries again).

// sessionNet is a running keeper of the session's network namespace.
type sessionNet struct {
	h     *helper
	pid   int // the keeper's process in the namespace (sandbox.Policy.NetNS)
	proxy int // the proxy's port, bridged inside
	ln    net.Listener

	dialMu sync.Mutex // one dial at a time on the keeper's socket

	fwdMu sync.Mutex
	fwd   map[int][]net.Listener // host loopback port: its listeners
}

// netPolicy puts pol's allow-list network in the session's network
// namespace when it can (namespaces, nsenter, a keeper that starts);
// otherwise Landlock's port rule lets the command reach the proxy's port
// and the ports the session's servers listen on. Call with r.mu held.
func (r *Registry) netPolicy(pol *sandbox.Policy) {
	if pol == nil || pol.ProxyPort == 0 {
		return
	}
	if pid := r.sessionNetFor(pol); pid > 0 {
		pol.NetNS = pid
		return
	}
	pol.ConnectPorts = r.livePorts()
}

// sessionNetFor returns the pid of the keeper of the session's network
// namespace, started on first use; 0 when there is none for pol. Call
// with r.mu held.
func (r *Registry) sessionNetFor(pol *sandbox.Policy) int {
	if !pol.Namespaces() || pol.Nsenter == "" {
		return 0
	}
	if n := r.snet; n != nil && n.proxy == pol.ProxyPort && n.h.sup.running() {
		return n.pid
	}
	r.dropNet()
	if r.netFailed == pol.ProxyPort {
		return 0 // it could not start: do not pay for it again
	}
	n, err := r.startNet(pol)
	if err != nil {
		r.netFailed = pol.ProxyPort
		return 0
	}
	r.snet = n
	return n.pid
}

// startNet starts the keeper (supervisor's wire.NetFlag) and the bridge
// to the proxy. Call with r.mu held.
func (r *Registry) startNet(pol *sandbox.Policy) (*sessionNet, error) {
	life, err := r.lifeline()
	if err != nil {
		return nil, err
	}
	args := []string{wire.NetFlag, "-bwrap", pol.Bwrap, "-proxy-port", strconv.Itoa(pol.ProxyPort)}
	h, err := r.startHelper(life, args, "/", []string{}, [3]*os.File{}, true)
	if err != nil {
		return nil, err
	}
	h.statR.SetReadDeadline(time.Now().Add(holdStart))
	kind, text := readStatus(bufio.NewReader(h.statR))
	pid, _ := strconv.Atoi(text)
	var ln net.Listener
	if kind == wire.MsgPID && pid > 0 {
		// The listener came before the pid line.
		var msg string
		var f *os.File
		if msg, f, err = recvFile(h.sock); err == nil && msg == wire.NetListen && f != nil {
			ln, err = net.FileListener(f)
			f.Close()
		}
	}
	if ln == nil {
		h.sup.signal(syscall.SIGTERM)
		h.discard()
		return nil, fmt.Errorf("the session's network did not start: %s %s %v", kind, text, err)
	}
	n := &sessionNet{h: h, pid: pid, proxy: pol.ProxyPort, ln: ln, fwd: map[int][]net.Listener{}}
	go n.bridge()
	return n, nil
}

// bridge relays each connection to the proxy's port inside to the proxy.
func (n *sessionNet) bridge() {
	addr := "127.0.0.1:" + strconv.Itoa(n.proxy)
	for {
		c, err := n.ln.Accept()
		if err != nil {
			return // closed: the session's network was dropped
		}
		go func() {
			up, err := net.Dial("tcp4", addr)
			if err != nil {
				c.Close()
				return
			}
			netproxy.Relay(c, up)
		}()
	}
}

// dial connects to port on the namespace's loopback (through the keeper).
func (n *sessionNet) dial(port int) (net.Conn, error) {
	n.dialMu.Lock()
	defer n.dialMu.Unlock()
	fd := int(n.h.sock.Fd())
	if err := syscall.Sendmsg(fd, []byte(wire.NetDial+" "+strconv.Itoa(port)), nil, nil, 0); err != nil {
		return nil, err
	}
	msg, f, err := recvFile(n.h.sock)
	if err != nil {
		return nil, err
	}
	if msg != wire.NetOK || f == nil {
		return nil, errors.New(msg)
	}
	defer f.Close()
	return net.FileConn(f)
}

// recvFile reads one message of the keeper's socket and the descriptor it
// carries, if any.
func recvFile(sock *os.File) (string, *os.File, error) {
	buf := make([]byte, 512)
	oob := make([]byte, syscall.CmsgSpace(4))
	n, oobn, _, _, err := syscall.Recvmsg(int(sock.Fd()), buf, oob, 0)
	for err == syscall.EINTR {
		n, oobn, _, _, err = syscall.Recvmsg(int(sock.Fd()), buf, oob, 0)
	}
	if err != nil {
		return "", nil, err
	}
	if n == 0 {
		return "", nil, errors.New("the session's network ended")
	}
	var f *os.File
	if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil && len(msgs) == 1 {
		if fds, err := syscall.ParseUnixRights(&msgs[0]); err == nil && len(fds) == 1 {
			syscall.CloseOnExec(fds[0])
			f = os.NewFile(uintptr(fds[0]), "session-net")
		}
	}
	return string(buf[:n]), f, nil
}

// forward makes the host's loopback port lead into the namespace for
// each of ports, and ends the forwards of ports no longer listed. A port
// the host already uses is left out (see above).
func (n *sessionNet) forward(ports []int) {
	n.fwdMu.Lock()
	defer n.fwdMu.Unlock()
	for p, lns := range n.fwd {
		if !slices.Contains(ports, p) {
			for _, ln := range lns {
				ln.Close()
			}
			delete(n.fwd, p)
		}
	}
	for _, p := range ports {
		if n.fwd == nil || n.fwd[p] != nil || p == n.proxy {
			continue
		}
		ln, err := net.Listen("tcp4", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			continue
		}
		lns := []net.Listener{ln}
		// A browser may try localhost's IPv6 address first.
		if ln6, err := net.Listen("tcp6", "[::1]:"+strconv.Itoa(p)); err == nil {
			lns = append(lns, ln6)
		}
		n.fwd[p] = lns
		for _, ln := range lns {
			go n.serveForward(ln, p)
		}
	}
}

// serveForward relays each connection to ln to port in the namespace.
func (n *sessionNet) serveForward(ln net.Listener, port int) {
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		go func() {
			in, err := n.dial(port)
			if err != nil {
				c.Close()
				return
			}
			netproxy.Relay(c, in)
		}()
	}
}

// close ends the bridge, the forwards and the keeper (commands still in
// the namespace keep it, without the proxy).
func (n *sessionNet) close() {
	n.ln.Close()
	n.fwdMu.Lock()
	for _, lns := range n.fwd {
		for _, ln := range lns {
			ln.Close()
		}
	}
	n.fwd = nil
	n.fwdMu.Unlock()
	n.h.sup.signal(syscall.SIGTERM)
	n.h.discard()
}

// dropNet ends the session's network, if any, and returns a channel
// closed once its keeper ended; call with r.mu held.
func (r *Registry) dropNet() <-chan struct{} {
	n := r.snet
	if n == nil {
		return nil
	}
	r.snet = nil
	n.close()
	return n.h.sup.done
}

// forwardPorts forwards the ports the session's processes listen on now
// (port scan); call without r.mu.
func (r *Registry) forwardPorts() {
	r.mu.Lock()
	n := r.snet
	var ports []int
	if n != nil {
		ports = r.livePorts()
	}
	r.mu.Unlock()
	if n != nil {
		n.forward(ports)
	}
}
