package supervisor

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"

	"gatehouse/internal/sandbox"
	"gatehouse/internal/sandbox/confine"
	"gatehouse/internal/supervisor/wire"
)

// namespaced returns the command line that runs argv in the namespaces of
// p: bubblewrap sets up the user, mount, PID, IPC (and network) namespaces
// and their mounts, then runs this helper's inner stage, which applies
// Landlock and seccomp (they must come after the mounts: a thread under
// Landlock cannot mount) and execs argv. The helper itself stays outside:
// it keeps the lifeline, the ledger's group and the kill of the tree, and
// the command cannot signal it (another PID namespace).
func namespaced(p sandbox.Policy, argv []string) ([]string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("sandbox: cannot find the helper's own path: %w", err)
	}
	dir, _ := os.Getwd()
	inner := append(append([]string{self, wire.InnerFlag}, p.Args()...), "--")
	inner = append(inner, argv...)
	return append([]string{p.Bwrap}, p.BwrapArgs(dir, inner)...), nil
}

// inner is the stage inside the namespaces: it confines its thread with
// Landlock and seccomp and execs the command from it, so the command is
// the process bubblewrap started (no helper stays inside).
func inner(args []string) int {
	fs := flag.NewFlagSet("gatehouse-supervisor "+wire.InnerFlag, flag.ContinueOnError)
	var pol sandbox.Policy
	pol.Flags(fs)
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "gatehouse-supervisor: inner stage: no command or bad flags:", err)
		return 2
	}
	argv := fs.Args()
	runtime.LockOSThread() // never unlocked: the thread execs or the process exits
	if err := confine.ApplyThread(pol); err != nil {
		fmt.Fprintln(os.Stderr, "gatehouse-supervisor:", err)
		return 126
	}
	err := syscall.Exec(argv[0], argv, os.Environ())
	fmt.Fprintf(os.Stderr, "gatehouse-supervisor: cannot run %s: %v\n", argv[0], err)
	return 127
}

// errFork wraps a failed fork (the command could not start), as opposed
// to a failed confinement.
var errFork = errors.New("fork")

// confinedFork confines a thread other than the helper's main one (the
// thread-group leader: the kernel checks a signal to the helper against
// the leader's Landlock domain, which must stay outside the command's) and
// forks the command from it; the thread then ends with its goroutine, so
// no goroutine of the helper runs confined.
func confinedFork(p sandbox.Policy, fork func() (int, error)) (int, error) {
	type result struct {
		pid int
		err error
	}
	ch := make(chan result, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		if unix.Gettid() == unix.Getpid() {
			// The leader: keep it held, so the next try gets another thread.
			pid, err := confinedFork(p, fork)
			ch <- result{pid, err}
			return
		}
		if err := confine.ApplyThread(p); err != nil {
			ch <- result{0, err}
			return
		}
		pid, err := fork()
		if err != nil {
			err = fmt.Errorf("%w: %w", errFork, err)
		}
		ch <- result{pid, err}
	}()
	r := <-ch
	return r.pid, r.err
}
