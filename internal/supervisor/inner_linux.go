package supervisor

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"slices"
	"sync"
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
//
// With wait set, the inner stage waits for its command on fd 3 instead
// (a spare entering its namespaces ahead of its command, see prestart).
func namespaced(p sandbox.Policy, argv []string, wait bool) ([]string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("sandbox: cannot find the helper's own path: %w", err)
	}
	dir, _ := os.Getwd()
	inner := []string{self, wire.InnerFlag}
	if wait {
		inner, dir = append(inner, "-wait"), "/"
	}
	inner = append(append(inner, p.Args()...), "--")
	inner = append(inner, argv...)
	return append(append(p.NetPrefix(), p.Bwrap), p.BwrapArgs(dir, inner)...), nil
}

// inner is the stage inside the namespaces: it confines its thread with
// Landlock and seccomp and execs the command from it, so the command is
// the process bubblewrap started (no helper stays inside).
func inner(args []string) int {
	if len(args) == 1 && args[0] == wire.HoldFlag {
		return holdInside()
	}
	if len(args) == 2 && args[0] == wire.NetFlag {
		return netInside(args[1])
	}
	fs := flag.NewFlagSet("gatehouse-supervisor "+wire.InnerFlag, flag.ContinueOnError)
	var pol sandbox.Policy
	pol.Flags(fs)
	wait := fs.Bool("wait", false, "wait for the command on the socket -fd")
	sock := fs.Int("fd", 3, "with -wait: the socket the command comes on")
	joined := fs.Bool("joined", false, "already confined (nsenter joined a holder from a confined thread): apply nothing")
	if err := fs.Parse(args); err != nil || (fs.NArg() == 0 && !*wait) || *sock < 3 {
		fmt.Fprintln(os.Stderr, "gatehouse-supervisor: inner stage: no command or bad flags:", err)
		return 2
	}
	argv, env := fs.Args(), os.Environ()
	runtime.LockOSThread() // never unlocked: the thread execs or the process exits
	var c *confine.Confinement
	var err error
	if !*joined {
		if c, err = confine.Prepare(pol); err != nil {
			fmt.Fprintln(os.Stderr, "gatehouse-supervisor:", err)
			return 126
		}
	}
	if *wait {
		// Ready: a spare that joined ahead hands its command here only
		// then (before, joining again is quicker than waiting).
		syscall.Write(*sock, []byte{1})
		req, ok := awaitCommand(*sock)
		if !ok {
			return 0 // the spare was dropped
		}
		// What nsenter was given (the holder's namespaces and folders)
		// goes no further.
		for fd := 3; fd < *sock; fd++ {
			syscall.Close(fd)
		}
		argv, env = req.Args, req.Env
		if err := syscall.Chdir(req.Dir); err != nil {
			fmt.Fprintf(os.Stderr, "gatehouse-supervisor: cannot enter %s: %v\n", req.Dir, err)
			return 126
		}
	}
	if *joined {
		// Confined already, but joining the holder's user namespace gave
		// this thread every capability there.
		err = confine.DropCapabilities()
	} else {
		err = c.Apply()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gatehouse-supervisor:", err)
		return 126
	}
	// What nsenter or bubblewrap handed this stage (the holder's
	// namespaces and root) goes no further than stdin, stdout and stderr.
	confine.CloseOnExecAbove(3)
	err = syscall.Exec(argv[0], argv, env)
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
		c := takeReady(p)
		var err error
		if c == nil {
			c, err = confine.Prepare(p)
		}
		if err == nil {
			err = c.Apply()
		}
		if err != nil {
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

// awaitCommand reads the command of a waiting inner stage on the socket
// innerFD: a Request and
// its stdin, stdout and stderr, which it puts on 0, 1 and 2. false: end of
// file (the spare was dropped) or a bad request.
func awaitCommand(innerFD int) (wire.Request, bool) {
	var req wire.Request
	buf := make([]byte, wire.MaxRequest+1)
	oob := make([]byte, syscall.CmsgSpace(3*4))
	n, oobn, _, _, err := syscall.Recvmsg(innerFD, buf, oob, 0)
	for err == syscall.EINTR {
		n, oobn, _, _, err = syscall.Recvmsg(innerFD, buf, oob, 0)
	}
	syscall.Close(innerFD)
	if err != nil || n == 0 || json.Unmarshal(buf[:n], &req) != nil || len(req.Args) == 0 {
		return req, false
	}
	var fds []int
	if msgs, err := syscall.ParseSocketControlMessage(oob[:oobn]); err == nil && len(msgs) == 1 {
		fds, _ = syscall.ParseUnixRights(&msgs[0])
	}
	if len(fds) != 3 {
		return req, false
	}
	for i, fd := range fds {
		syscall.Dup3(fd, i, 0)
	}
	for _, fd := range fds {
		if fd > 2 {
			syscall.Close(fd)
		}
	}
	return req, true
}

// ready is a confinement a spare made ready before its command came
// (Landlock's ruleset open, seccomp's program assembled: ≈ 0.2 ms), with
// the policy it was made for; confinedFork applies it to a command whose
// policy is the same, and makes its own otherwise.
var ready struct {
	sync.Mutex
	args []string
	root string
	c    *confine.Confinement
}

// prepareAhead makes p's confinement ready for the command to come.
func prepareAhead(p sandbox.Policy) {
	c, err := confine.Prepare(p)
	if err != nil {
		return
	}
	ready.Lock()
	defer ready.Unlock()
	ready.args, ready.root, ready.c = p.Args(), p.HolderRoot, c
}

// takeReady returns the confinement made ready for p, once; nil when there
// is none or it was made for another policy.
func takeReady(p sandbox.Policy) *confine.Confinement {
	ready.Lock()
	defer ready.Unlock()
	c := ready.c
	if c == nil || ready.root != p.HolderRoot || !slices.Equal(ready.args, p.Args()) {
		return nil
	}
	ready.c = nil
	return c
}
