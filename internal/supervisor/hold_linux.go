package supervisor

import (
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"

	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/wire"
)

// hold makes the sandbox's namespaces for the policy of args and holds
// them, so that each command joins them (joinFiles, sandbox.JoinArgs)
// instead of paying for bubblewrap, its mounts and their teardown: it runs
// bubblewrap (no PID namespace: the commands that join stay in the app's,
// where their own helper is their subreaper) whose inner stage says its
// pid on the status pipe and waits for the lifeline to end. SIGTERM,
// SIGHUP or SIGUSR1 (the app dropped it) and the end of the lifeline end
// it; commands that joined keep the namespaces as long as they run.
//
// With keeper set (wire.NetFlag) it makes the session's network namespace
// instead (sandbox.KeeperArgs), whose inner stage (netInside) hands the
// app a socket listening on the proxy's port inside and dials the
// namespace's loopback for it (the forwards of the session's servers),
// on the request socket, until the app closes it.
func hold(args []string, keeper bool) int {
	status := os.NewFile(StatusFD, "status")
	fail := failer(status)
	j, err := parseJob(append(args, "--", "hold"))
	if err != nil {
		return fail(2, "%v", err)
	}
	switch {
	case keeper && (j.pol.Bwrap == "" || j.pol.ProxyPort <= 0):
		return fail(2, "%s needs -bwrap and -proxy-port", wire.NetFlag)
	case !j.pol.Namespaces():
		return fail(2, "%s needs -bwrap", wire.HoldFlag)
	}
	if _, err := unix.FcntlInt(RequestFD, unix.F_GETFD, 0); keeper && err != nil {
		return fail(2, "%s needs the request socket (fd %d)", wire.NetFlag, RequestFD)
	}
	if code, ok := setup(fail, status); !ok {
		return code
	}
	self, err := os.Executable()
	if err != nil {
		return fail(126, "sandbox: cannot find the helper's own path: %v", err)
	}
	null, err := syscall.Open(os.DevNull, syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		return fail(126, "%v", err)
	}
	files := []uintptr{uintptr(null), uintptr(null), 2, LifelineFD, StatusFD}
	if keeper {
		argv := append([]string{j.pol.Bwrap}, sandbox.KeeperArgs([]string{self, wire.InnerFlag, wire.NetFlag, strconv.Itoa(j.pol.ProxyPort)})...)
		return holdRun(fail, status, argv, append(files, RequestFD))
	}
	// In the session's network (NetPrefix) when it has one: a holder
	// replaced keeps the session's servers in reach.
	argv := append(append(j.pol.NetPrefix(), j.pol.Bwrap), j.pol.HoldArgs([]string{self, wire.InnerFlag, wire.HoldFlag})...)
	return holdRun(fail, status, argv, files)
}

// holdRun runs argv (bubblewrap, whose inner stage reports on the status
// pipe) with files, and stays until it ended: SIGTERM, SIGHUP or SIGUSR1
// kill its process group, and the end of the lifeline ends it (its inner
// stage watches the lifeline).
func holdRun(fail func(int, string, ...any) int, status *os.File, argv []string, files []uintptr) int {
	runtime.LockOSThread() // bubblewrap's --die-with-parent follows this thread
	pid, err := syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{Env: os.Environ(), Files: files, Sys: &syscall.SysProcAttr{Setpgid: true}})
	if err != nil {
		return fail(126, "sandbox: cannot run bubblewrap: %v", err)
	}
	status.Close() // the inner stage reports; end of file if bubblewrap fails
	if len(files) > RequestFD {
		syscall.Close(RequestFD) // a keeper's request socket: its inner stage holds it
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGUSR1, syscall.SIGINT, syscall.SIGQUIT)
	go func() {
		for sig := range sigs {
			if sig != syscall.SIGINT && sig != syscall.SIGQUIT {
				syscall.Kill(-pid, syscall.SIGKILL)
			}
		}
	}()
	for {
		var ws syscall.WaitStatus
		if _, err := syscall.Wait4(-1, &ws, 0, nil); err != nil && err != syscall.EINTR {
			return 0 // ECHILD: bubblewrap and its inner stage are gone
		}
	}
}

// holdInside is the process inside the namespaces that holds them: it says
// its pid and waits until the lifeline ends (the helper shares the pipe,
// maybe non-blocking: poll, not read).
func holdInside() int {
	if report(os.NewFile(StatusFD, "status"), MsgPID, strconv.Itoa(os.Getpid())) != nil {
		return 1
	}
	syscall.Close(StatusFD)
	fds := []unix.PollFd{{Fd: LifelineFD, Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, -1)
		if err == nil && n > 0 && fds[0].Revents&(unix.POLLHUP|unix.POLLERR|unix.POLLNVAL) != 0 {
			return 0
		}
		if err != nil && err != unix.EINTR {
			return 0
		}
	}
}

// joinFiles opens what a command joining holder's namespaces gets as
// descriptors 3 and up (sandbox.JoinFiles), from the helper's working
// folder, before the command's thread is confined. It refuses a holder
// whose user or mount namespace is the helper's own: its pid is no longer
// the holder's.
func joinFiles(p sandbox.Policy, holder int) ([]uintptr, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("sandbox: %w", err)
	}
	for _, ns := range []string{"user", "mnt"} {
		mine, err1 := os.Readlink("/proc/self/ns/" + ns)
		theirs, err2 := os.Readlink("/proc/" + strconv.Itoa(holder) + "/ns/" + ns)
		if err1 != nil || err2 != nil || mine == theirs {
			return nil, fmt.Errorf("sandbox: the namespaces of this command's sandbox are gone (holder %d)", holder)
		}
	}
	var fds []uintptr
	for _, f := range p.JoinFiles(holder, dir) {
		fd, err := syscall.Open(f, unix.O_PATH|syscall.O_CLOEXEC, 0)
		if err != nil {
			for _, fd := range fds {
				syscall.Close(int(fd))
			}
			return nil, fmt.Errorf("sandbox: cannot enter %s in the sandbox: %w", dir, err)
		}
		fds = append(fds, uintptr(fd))
	}
	return fds, nil
}

// holderRoot is where a holder's file system is seen from outside its
// mount namespace (see sandbox.Policy.HolderRoot).
func holderRoot(holder int) string { return "/proc/" + strconv.Itoa(holder) + "/root" }
