package confine

import (
	"fmt"
	"syscall"
	"unsafe"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"

	"gatehouse/internal/sandbox"
)

// rules are the system calls seccomp refuses (EPERM) to a confined
// command, for what neither Landlock nor the namespaces cover:
//
//   - socket(AF_UNIX, ...) unless the user allowed a socket: seccomp cannot
//     see the path a connect names, so Unix sockets are refused whole;
//     socketpair stays allowed (shells, make and node use it);
//   - with the network off and no network namespace, or in allow-list mode
//     (ProxyPort): every AF_INET and AF_INET6 socket but plain TCP (Landlock
//     refuses its connect, but to the proxy's port), so MPTCP, UDP, SCTP
//     and raw sockets too;
//   - with the network off or in allow-list mode: every socket family but
//     Unix, inet and netlink (vsock, TIPC, RDS, packet...), namespaces or
//     not;
//   - keyctl, add_key and request_key: the kernel's keyrings are not
//     namespaced, and the user's session keyring may hold credentials
//     (Kerberos tickets, tokens);
//   - io_uring_setup: io_uring opens and connects sockets without the
//     socket system call;
//   - ioctl(TIOCSTI): no typing into a terminal the command shares.
func rules(p sandbox.Policy) []seccomp.SyscallGroup {
	eq := func(arg uint32, v uint64) seccomp.Condition {
		return seccomp.Condition{Argument: arg, Operation: seccomp.Equal, Value: v}
	}
	var socket []seccomp.NameWithConditions
	if !p.AllowUnix {
		socket = append(socket, seccomp.NameWithConditions{Name: "socket", Conditions: []seccomp.Condition{eq(0, unix.AF_UNIX)}})
	}
	if p.NoNetwork && !p.Namespaces() || p.ProxyPort != 0 {
		for _, fam := range []uint64{unix.AF_INET, unix.AF_INET6} {
			socket = append(socket,
				// any type but SOCK_STREAM (1): SOCK_DGRAM, RAW, SEQPACKET... all have a bit of 0xe
				seccomp.NameWithConditions{Name: "socket", Conditions: []seccomp.Condition{eq(0, fam), {Argument: 1, Operation: seccomp.BitsSet, Value: 0xe}}},
				// a stream socket of another protocol than TCP: MPTCP, SCTP
				seccomp.NameWithConditions{Name: "socket", Conditions: []seccomp.Condition{eq(0, fam),
					{Argument: 2, Operation: seccomp.NotEqual, Value: 0}, {Argument: 2, Operation: seccomp.NotEqual, Value: unix.IPPROTO_TCP}}})
		}
	}
	if p.NoNetwork || p.ProxyPort != 0 {
		// Every other family: vsock reaches the hypervisor from any
		// network namespace, and TIPC, RDS, packet sockets and the like
		// are networks of their own. Netlink stays (the C library asks
		// it for this machine's addresses).
		var others []seccomp.Condition
		for _, fam := range []uint64{unix.AF_UNIX, unix.AF_INET, unix.AF_INET6, unix.AF_NETLINK} {
			others = append(others, seccomp.Condition{Argument: 0, Operation: seccomp.NotEqual, Value: fam})
		}
		socket = append(socket, seccomp.NameWithConditions{Name: "socket", Conditions: others})
	}
	socket = append(socket, seccomp.NameWithConditions{Name: "ioctl", Conditions: []seccomp.Condition{eq(1, unix.TIOCSTI)}})
	return []seccomp.SyscallGroup{
		{Action: seccomp.ActionErrno, Names: []string{"io_uring_setup", "keyctl", "add_key", "request_key"}, NamesWithCondtions: socket},
	}
}

// program assembles the seccomp filter of p. System calls of another
// architecture (32-bit programs on a 64-bit kernel, whose socketcall would
// slip past) are refused whole.
func program(p sandbox.Policy) ([]syscall.SockFilter, error) {
	pol := seccomp.Policy{DefaultAction: seccomp.ActionAllow, Syscalls: rules(p)}
	insts, err := pol.Assemble()
	if err != nil {
		return nil, fmt.Errorf("sandbox: seccomp: %w", err)
	}
	// Assemble jumps to its last instruction (the default, allow) on a
	// foreign architecture; make that jump land on a refusal instead.
	j, ok := insts[1].(bpf.JumpIf)
	if !ok || j.Cond != bpf.JumpNotEqual || j.SkipTrue == 255 {
		return nil, fmt.Errorf("sandbox: seccomp: unexpected program shape")
	}
	j.SkipTrue++
	insts[1] = j
	insts = append(insts, bpf.RetConstant{Val: uint32(seccomp.ActionErrno) | uint32(unix.EPERM)})
	raw, err := bpf.Assemble(insts)
	if err != nil {
		return nil, fmt.Errorf("sandbox: seccomp: %w", err)
	}
	filter := make([]syscall.SockFilter, len(raw))
	for i, r := range raw {
		filter[i] = syscall.SockFilter{Code: r.Op, Jt: r.Jt, Jf: r.Jf, K: r.K}
	}
	return filter, nil
}

// load installs filter on the calling thread (no_new_privs must be set),
// without SECCOMP_FILTER_FLAG_TSYNC: this thread only.
func load(filter []syscall.SockFilter) error {
	prog := syscall.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if _, _, e := syscall.RawSyscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, 0, uintptr(unsafe.Pointer(&prog))); e != 0 {
		return fmt.Errorf("sandbox: seccomp: %w", e)
	}
	return nil
}
