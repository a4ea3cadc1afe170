package supervisor

import (
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/wire"
)

// spare is a helper started ahead of its command, so that the app's next
// command does not wait for a process start-up: it waits for one Request,
// then runs it as Main would. End of file on the socket (the app dropped
// the spare, or died) ends it.
//
// With policy flags (pre), the spare also enters the sandbox's namespaces
// ahead (prestart): bubblewrap's start and mounts, ≈ 5 to 10 ms, are then
// paid between commands. A request confined by exactly that policy, with no
// terminal, runs there; any other runs as without.
func spare(pre []string) int {
	for _, fd := range []int{LifelineFD, StatusFD, RequestFD} {
		syscall.CloseOnExec(fd)
	}
	runtime.LockOSThread() // bubblewrap's --die-with-parent follows this thread
	var ahead *prestarted
	if len(pre) > 0 {
		syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0)
		if j, err := parseJob(append(pre, "--", "wait")); err == nil && j.join > 0 && j.pol.Nsenter != "" {
			// The command's confinement is made ready while it has not
			// come (commands back to back find it ready too).
			pol := j.pol
			pol.HolderRoot = holderRoot(j.join)
			prepareAhead(pol)
			if !requestWithin(idleAhead) {
				ahead = prestartJoined(j)
			}
		} else {
			ahead = prestart(pre)
		}
	}
	buf := make([]byte, wire.MaxRequest+1)
	oob := make([]byte, syscall.CmsgSpace(3*4))
	n, oobn, _, _, err := syscall.Recvmsg(RequestFD, buf, oob, 0)
	for err == syscall.EINTR {
		n, oobn, _, _, err = syscall.Recvmsg(RequestFD, buf, oob, 0)
	}
	syscall.Close(RequestFD)
	if err != nil || n == 0 {
		if ahead != nil {
			ahead.drop() // nothing of it outlives the spare
		}
		return 0 // dropped before use
	}
	var fds []int
	if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil && len(msgs) == 1 {
		fds, _ = syscall.ParseUnixRights(&msgs[0])
	}
	var req wire.Request
	if len(fds) != 3 || json.Unmarshal(buf[:n], &req) != nil {
		status := os.NewFile(StatusFD, "status")
		report(status, MsgError, fmt.Sprintf("spare helper: a bad request (%d bytes, %d files)", n, len(fds)))
		return 2
	}
	if ahead != nil {
		if code, ok := ahead.run(req, fds); ok {
			return code
		}
		ahead.drop()
	}
	for i, fd := range fds {
		syscall.Dup3(fd, i, 0)
	}
	for _, fd := range fds {
		if fd > 2 {
			syscall.Close(fd)
		}
	}
	if err := syscall.Chdir(req.Dir); err != nil {
		report(os.NewFile(StatusFD, "status"), MsgError, fmt.Sprintf("cannot enter %s: %v", req.Dir, err))
		return 2
	}
	return run(req.Args, req.Env)
}

// prestarted is bubblewrap started ahead with the inner stage waiting on
// sock for its command.
type prestarted struct {
	pol  sandbox.Policy
	args []string // pol as flags, to compare with a request's
	join int      // the holder joined (prestartJoined), else 0
	pid  int      // bubblewrap, or nsenter become the inner stage
	sock int
}

// idleAhead is how long a spare whose commands join a holder waits for its
// command before it enters the sandbox ahead (prestartJoined). Joining
// costs a start of the inner stage, which a command coming at once (a
// script's commands back to back) would pay on top of its own; a command
// after a pause (an agent's next one comes after a model's turn) finds the
// inner stage waiting.
const idleAhead = 10 * time.Millisecond

// requestWithin reports whether the request socket becomes readable (or
// ends) within d.
func requestWithin(d time.Duration) bool {
	fds := []unix.PollFd{{Fd: RequestFD, Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, int(d/time.Millisecond))
		if err == unix.EINTR {
			continue
		}
		return err != nil || n > 0
	}
}

// prestartJoined enters the namespaces of the holder j names ahead of the
// command, from a confined thread (as run does for a command), with the
// inner stage waiting for its command on a socket; nil when it cannot
// (the request then runs as without).
func prestartJoined(j job) *prestarted {
	self, err := os.Executable()
	if err != nil {
		return nil
	}
	extra, err := joinFiles(j.pol, j.join)
	if err != nil {
		return nil
	}
	defer func() {
		for _, fd := range extra {
			syscall.Close(int(fd))
		}
	}()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	sockFD := 3 + len(extra)
	argv := j.pol.JoinArgs([]string{self, wire.InnerFlag, "-wait", "-joined", "-fd", strconv.Itoa(sockFD)})
	j.pol.HolderRoot = holderRoot(j.join)
	files := append(append([]uintptr{0, 1, 2}, extra...), uintptr(fds[1]))
	pid, err := confinedFork(j.pol, func() (int, error) {
		return syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{Env: os.Environ(), Files: files, Sys: &syscall.SysProcAttr{Setpgid: true}})
	})
	syscall.Close(fds[1])
	if err != nil {
		syscall.Close(fds[0])
		return nil
	}
	return &prestarted{pol: j.pol, args: j.pol.Args(), join: j.join, pid: pid, sock: fds[0]}
}

// prestart starts bubblewrap with the policy of the flags pre, its inner
// stage waiting; nil when it cannot (the request then runs as without).
func prestart(pre []string) *prestarted {
	j, err := parseJob(append(pre, "--", "wait"))
	if err != nil || !j.pol.Namespaces() {
		return nil
	}
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	argv, err := namespaced(j.pol, nil, true)
	if err != nil {
		syscall.Close(fds[0])
		syscall.Close(fds[1])
		return nil
	}
	pid, err := syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{Env: os.Environ(), Files: []uintptr{0, 1, 2, uintptr(fds[1])},
		Sys: &syscall.SysProcAttr{Setpgid: true}})
	syscall.Close(fds[1])
	if err != nil {
		syscall.Close(fds[0])
		return nil
	}
	return &prestarted{pol: j.pol, args: j.pol.Args(), pid: pid, sock: fds[0]}
}

// run hands the request to the waiting inner stage when it fits (confined
// by the same policy, no terminal) and supervises it; false: it does not
// fit, run it as without.
func (p *prestarted) run(req wire.Request, stdio []int) (int, bool) {
	j, err := parseJob(req.Args)
	if err != nil || j.pty || !j.confined || j.join != p.join || !slices.Equal(j.pol.Args(), p.args) {
		return 0, false
	}
	// The ready byte is read in any case: a socket closed with unread data
	// resets its peer, which would then never read its command.
	if !p.ready(p.join == 0) {
		// Still starting on a busy machine (it joins by itself, quicker
		// than waiting), or bubblewrap failed.
		return 0, false
	}
	status := os.NewFile(StatusFD, "status")
	fail := failer(status)
	if code, ok := setup(fail, status); !ok {
		return code, true
	}
	b, err := json.Marshal(wire.Request{Args: j.argv, Env: j.pol.Environ(req.Env), Dir: req.Dir})
	if err != nil || syscall.Sendmsg(p.sock, b, syscall.UnixRights(stdio...), nil, 0) != nil {
		return 0, false
	}
	syscall.Close(p.sock)
	for _, fd := range stdio {
		syscall.Close(fd)
	}
	return supervise(p.pid, status, j.grace), true
}

// ready reports whether the inner stage said it waits for its command;
// with wait, it waits for it to say so (or to end).
func (p *prestarted) ready(wait bool) bool {
	var b [1]byte
	flags := syscall.MSG_DONTWAIT
	if wait {
		flags = 0
	}
	n, _, err := syscall.Recvfrom(p.sock, b[:], flags)
	for err == syscall.EINTR {
		n, _, err = syscall.Recvfrom(p.sock, b[:], flags)
	}
	return err == nil && n == 1
}

// drop kills bubblewrap and the waiting inner stage (its process group;
// it may still be mounting) and reaps it.
func (p *prestarted) drop() {
	syscall.Close(p.sock)
	syscall.Kill(-p.pid, syscall.SIGKILL)
	var ws syscall.WaitStatus
	syscall.Wait4(p.pid, &ws, 0, nil)
}
