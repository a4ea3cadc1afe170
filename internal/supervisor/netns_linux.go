package supervisor

import (
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"gatehouse/internal/supervisor/wire"
)

// netInside runs in the session's network namespace: it listens on
// 127.0.0.1:port (where commands find the proxy), hands that socket to the
// app, says its pid, and dials the namespace's loopback for the app until
// the app closes the socket.
func netInside(port string) int {
	status := os.NewFile(StatusFD, "status")
	ln, err := net.Listen("tcp4", "127.0.0.1:"+port)
	if err != nil {
		report(status, MsgError, fmt.Sprintf("sandbox: the session's network: %v", err))
		return 1
	}
	lf, err := ln.(*net.TCPListener).File()
	ln.Close()
	if err != nil {
		report(status, MsgError, fmt.Sprintf("sandbox: the session's network: %v", err))
		return 1
	}
	if syscall.Sendmsg(RequestFD, []byte(wire.NetListen), syscall.UnixRights(int(lf.Fd())), nil, 0) != nil {
		return 1
	}
	lf.Close()
	if report(status, MsgPID, strconv.Itoa(os.Getpid())) != nil {
		return 1
	}
	status.Close()
	syscall.Close(LifelineFD) // the request socket ends with the app
	buf := make([]byte, 64)
	for {
		n, _, err := syscall.Recvfrom(RequestFD, buf, 0)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n == 0 {
			return 0
		}
		if k, ok := strings.CutPrefix(string(buf[:n]), wire.NetSockets+" "); ok {
			sendSockets(k)
			continue
		}
		p, ok := strings.CutPrefix(string(buf[:n]), wire.NetDial+" ")
		port, err := strconv.Atoi(p)
		if !ok || err != nil || port <= 0 || port > 65535 {
			syscall.Sendmsg(RequestFD, []byte(MsgError+" a bad request"), nil, nil, 0)
			continue
		}
		c, err := dialLoopback(port)
		if err != nil {
			syscall.Sendmsg(RequestFD, []byte(MsgError+" "+err.Error()), nil, nil, 0)
			continue
		}
		syscall.Sendmsg(RequestFD, []byte(wire.NetOK), syscall.UnixRights(int(c.Fd())), nil, 0)
		c.Close()
	}
}

// maxSockets bounds the sockets one NetSockets message asks for.
const maxSockets = 32

// sendSockets answers "NetSockets k": k TCP sockets made here, in the
// namespace, for the app to connect.
func sendSockets(k string) {
	n, err := strconv.Atoi(k)
	if err != nil || n <= 0 || n > maxSockets {
		syscall.Sendmsg(RequestFD, []byte(MsgError+" a bad request"), nil, nil, 0)
		return
	}
	var fds []int
	for range n {
		fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
		if err != nil {
			break
		}
		fds = append(fds, fd)
	}
	if len(fds) == 0 {
		syscall.Sendmsg(RequestFD, []byte(MsgError+" no socket"), nil, nil, 0)
		return
	}
	syscall.Sendmsg(RequestFD, []byte(wire.NetOK), syscall.UnixRights(fds...), nil, 0)
	for _, fd := range fds {
		syscall.Close(fd)
	}
}

// dialLoopback connects to port on the namespace's loopback, IPv4 first
// (a server on localhost may listen on either).
func dialLoopback(port int) (*os.File, error) {
	var last error
	for _, host := range []string{"127.0.0.1", "::1"} {
		c, err := net.DialTimeout("tcp", net.JoinHostPort(host, strconv.Itoa(port)), 2*time.Second)
		if err != nil {
			last = err
			continue
		}
		f, err := c.(*net.TCPConn).File()
		c.Close()
		return f, err
	}
	return nil, last
}
