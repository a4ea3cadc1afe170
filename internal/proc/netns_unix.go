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
// later commands reach them when a holder is replaced. The app's proxy
// serves a socket listening on the proxy's port inside, which the keeper
// made (Policy.ServeProxy), and the app forwards the ports its servers
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
	pid   int          // the keeper's process in the namespace (sandbox.Policy.NetNS)
	proxy int          // the proxy's port, bridged inside
	ln    net.Listener // the proxy's port inside

	dialMu  sync.Mutex // one question at a time on the keeper's socket
	sockets []int      // unconnected sockets made in the namespace (on dialMu)

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
	if !pol.Namespaces() || pol.Nsenter == "" || pol.ServeProxy == nil {
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

// startNet starts the keeper (supervisor's wire.NetFlag), and the proxy
// on its port inside. Call with r.mu held.
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
		var fds []int
		if msg, fds, err = recvFDs(h.sock); err == nil && msg == wire.NetListen && len(fds) == 1 {
			f := os.NewFile(uintptr(fds[0]), "session-net")
			ln, err = net.FileListener(f)
			f.Close()
		} else {
			closeFDs(fds)
		}
	}
	if ln == nil {
		h.sup.signal(syscall.SIGTERM)
		h.discard()
		return nil, fmt.Errorf("the session's network did not start: %s %s %v", kind, text, err)
	}
	n := &sessionNet{h: h, pid: pid, proxy: pol.ProxyPort, ln: ln, fwd: map[int][]net.Listener{}}
	go pol.ServeProxy(ln)
	return n, nil
}

// dial connects to port on the namespace's loopback: a socket made
// there (socket) connected from here, no round trip to the keeper; a
// server that listens on IPv6 only is dialled by the keeper.
func (n *sessionNet) dial(port int) (net.Conn, error) {
	fd, err := n.socket()
	if err != nil {
		return nil, err
	}
	err = syscall.Connect(fd, &syscall.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}})
	for err == syscall.EINTR {
		err = syscall.Connect(fd, &syscall.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}})
	}
	if err != nil {
		syscall.Close(fd)
		return n.keeperDial(port)
	}
	f := os.NewFile(uintptr(fd), "session-net")
	defer f.Close()
	return net.FileConn(f)
}

// socketBatch is how many sockets the keeper makes at a time.
const socketBatch = 16

// socket takes an unconnected TCP socket made in the namespace, asking
// the keeper for a batch when none is left.
func (n *sessionNet) socket() (int, error) {
	n.dialMu.Lock()
	defer n.dialMu.Unlock()
	if len(n.sockets) == 0 {
		msg, fds, err := n.ask(wire.NetSockets + " " + strconv.Itoa(socketBatch))
		if err != nil {
			return -1, err
		}
		if msg != wire.NetOK || len(fds) == 0 {
			return -1, errors.New(msg)
		}
		n.sockets = fds
	}
	fd := n.sockets[len(n.sockets)-1]
	n.sockets = n.sockets[:len(n.sockets)-1]
	return fd, nil
}

// keeperDial has the keeper connect to port on the namespace's loopback
// (IPv4, else IPv6).
func (n *sessionNet) keeperDial(port int) (net.Conn, error) {
	n.dialMu.Lock()
	msg, fds, err := n.ask(wire.NetDial + " " + strconv.Itoa(port))
	n.dialMu.Unlock()
	if err != nil {
		return nil, err
	}
	if msg != wire.NetOK || len(fds) != 1 {
		closeFDs(fds)
		return nil, errors.New(msg)
	}
	f := os.NewFile(uintptr(fds[0]), "session-net")
	defer f.Close()
	return net.FileConn(f)
}

// ask sends msg to the keeper and reads its answer; call with dialMu
// held.
func (n *sessionNet) ask(msg string) (string, []int, error) {
	if err := syscall.Sendmsg(int(n.h.sock.Fd()), []byte(msg), nil, nil, 0); err != nil {
		return "", nil, err
	}
	return recvFDs(n.h.sock)
}

// recvFDs reads one message of the keeper's socket and the descriptors it
// carries (close-on-exec).
func recvFDs(sock *os.File) (string, []int, error) {
	buf := make([]byte, 512)
	oob := make([]byte, syscall.CmsgSpace(4*socketBatch))
	n, oobn, _, _, err := syscall.Recvmsg(int(sock.Fd()), buf, oob, 0)
	for err == syscall.EINTR {
		n, oobn, _, _, err = syscall.Recvmsg(int(sock.Fd()), buf, oob, 0)
	}
	if err != nil {
		return "", nil, err
	}
	var fds []int
	if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil {
		for _, m := range msgs {
			got, _ := syscall.ParseUnixRights(&m)
			fds = append(fds, got...)
		}
	}
	for _, fd := range fds {
		syscall.CloseOnExec(fd)
	}
	if n == 0 {
		closeFDs(fds)
		return "", nil, errors.New("the session's network ended")
	}
	return string(buf[:n]), fds, nil
}

func closeFDs(fds []int) {
	for _, fd := range fds {
		syscall.Close(fd)
	}
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

// close ends the proxy's port inside, the forwards and the keeper (commands still in
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
	n.dialMu.Lock()
	closeFDs(n.sockets)
	n.sockets = nil
	n.dialMu.Unlock()
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
