// Package wire is what the app and the supervisor helper say to each other
// (see package supervisor): the file descriptors the helper gets, the lines
// of its status pipe, and a spare helper's request. It imports nothing, so
// the app can use it without linking the helper's Landlock code.
package wire

// File descriptors the helper is given besides stdio.
const (
	LifelineFD = 3
	StatusFD   = 4
	RequestFD  = 5 // -spare only: the socket the Request comes on
)

// Kinds of the status pipe's lines, "kind text\\n".
const (
	MsgPID   = "pid"
	MsgExit  = "exit"
	MsgError = "error"
)

// SpareFlag starts a helper ahead of its command.
const SpareFlag = "-spare"

// HoldFlag, first, starts a helper that holds the sandbox's namespaces
// for the commands that join them (the policy flags follow): it says
// "pid N" on its status pipe, N the process whose namespaces they join,
// and ends them when signalled or when the app goes away. As the inner
// stage's only flag, it is that process.
const HoldFlag = "-hold"

// NetFlag, first, starts the keeper of a session's network namespace
// (the flags -bwrap, -nsenter and -proxy-port follow): it says "pid N" on
// its status pipe, N the process in the namespace (sandbox.Policy.NetNS),
// then sends on the request socket (fd 5) NetListen with the descriptor of
// a socket listening on 127.0.0.1:proxy-port inside, and answers each
// "NetDial PORT" with NetOK and a socket connected to that port of the
// namespace's loopback, or "error TEXT", and each "NetSockets N" with
// NetOK and N unconnected TCP (IPv4) sockets made in the namespace (the
// app connects them itself: no round trip per connection). End of file
// on the socket ends it. As the inner stage's first flag (with the port), it is that process.
const NetFlag = "-session-net"

// Messages of the session network's socket (NetFlag).
const (
	NetListen  = "listen"
	NetDial    = "dial"
	NetSockets = "sockets"
	NetOK      = "ok"
)

// JoinFlag N makes a confined command join the namespaces of holder N.
const JoinFlag = "-join"

// InnerFlag starts the helper's stage inside the sandbox's namespaces
// (see package supervisor).
const InnerFlag = "-inner"

// Request is what the app sends a spare helper on fd 5, a SOCK_SEQPACKET
// socket, with the command's stdin, stdout and stderr as SCM_RIGHTS: the
// flags and command line of a normal start, its environment and its folder.
type Request struct {
	Args []string `json:"args"`
	Env  []string `json:"env"`
	Dir  string   `json:"dir"`
}

// MaxRequest bounds a request; a larger one starts a helper of its own.
const MaxRequest = 96 << 10
