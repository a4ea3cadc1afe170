package supervisor

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"gatehouse/internal/sandbox"
	"gatehouse/internal/sandbox/confine"
	"gatehouse/internal/supervisor/wire"
)

const prSetChildSubreaper = 36

// Main runs the helper with args (without the program name) and returns its
// exit code.
func Main(args []string) int {
	// A descriptor the helper inherited without close-on-exec (its
	// parent's parent leaked it) must not reach the command: only the
	// lifeline, the status pipe and a spare's request socket are the
	// helper's, and each command gets its stdin, stdout and stderr.
	spareJob := len(args) > 0 && args[len(args)-1] == wire.SpareFlag
	confine.CloseOnExecAbove(RequestFD + 1)
	if spareJob {
		return spare(args[:len(args)-1])
	}
	if len(args) > 0 && args[0] == wire.HoldFlag {
		return hold(args[1:], false)
	}
	if len(args) > 0 && args[0] == wire.NetFlag {
		return hold(args[1:], true)
	}
	if len(args) > 0 && args[0] == wire.InnerFlag {
		return inner(args[1:])
	}
	return run(args, os.Environ())
}

// job is a command line of the helper, parsed.
type job struct {
	pty, confined bool
	grace         time.Duration
	join          int // the holder whose namespaces the command joins
	pol           sandbox.Policy
	argv          []string
}

// parseJob reads the flags of args and the command after them.
func parseJob(args []string) (job, error) {
	var j job
	fs := flag.NewFlagSet("gatehouse-supervisor", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&j.pty, "pty", false, "give the shell a session whose controlling terminal is stdin")
	fs.BoolVar(&j.confined, "confine", false, "apply the sandbox policy of the other flags")
	fs.DurationVar(&j.grace, "grace", 2*time.Second, "time between SIGTERM and SIGKILL when the app went away")
	fs.IntVar(&j.join, wire.JoinFlag[1:], 0, "join the namespaces of this holder (with -confine and -nsenter)")
	j.pol.Flags(fs)
	if err := fs.Parse(args); err != nil {
		return j, err
	}
	j.argv = fs.Args()
	if len(j.argv) == 0 {
		return j, errors.New("no command given (usage: gatehouse-supervisor [flags] -- shell -c command)")
	}
	return j, nil
}

// failer reports a failure on the status pipe (else stderr) and returns
// code.
func failer(status *os.File) func(code int, format string, a ...any) int {
	return func(code int, format string, a ...any) int {
		msg := fmt.Sprintf(format, a...)
		if status == nil || report(status, MsgError, msg) != nil {
			fmt.Fprintln(os.Stderr, "gatehouse-supervisor:", msg)
		}
		return code
	}
}

// setup checks the helper's descriptors and makes it a child subreaper.
func setup(fail func(int, string, ...any) int, status *os.File) (int, bool) {
	if _, err := unix.FcntlInt(LifelineFD, unix.F_GETFD, 0); status == nil || err != nil {
		return fail(2, "fd %d (lifeline) and fd %d (status) must be open", LifelineFD, StatusFD), false
	}
	syscall.CloseOnExec(StatusFD)
	syscall.CloseOnExec(LifelineFD)
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
		return fail(126, "cannot become a child subreaper: %v", e), false
	}
	return 0, true
}

// run starts the command of args with env and supervises it.
func run(args, env []string) int {
	status := os.NewFile(StatusFD, "status")
	fail := failer(status)
	j, err := parseJob(args)
	if err != nil {
		return fail(2, "%v", err)
	}
	if code, ok := setup(fail, status); !ok {
		return code
	}
	argv, pol := j.argv, j.pol
	sys := &syscall.SysProcAttr{Setpgid: true}
	if j.pty {
		sys = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	}
	// The thread that forks stays: bubblewrap's --die-with-parent follows
	// the thread, not the process.
	runtime.LockOSThread()
	files := []uintptr{0, 1, 2}
	fork := func() (int, error) {
		return syscall.ForkExec(argv[0], argv, &syscall.ProcAttr{Env: env, Files: files, Sys: sys})
	}
	var pid int
	switch {
	case j.confined && pol.Namespaces() && pol.Nsenter != "" && j.join > 0:
		env = pol.Environ(env)
		extra, err := joinFiles(pol, j.join)
		if err != nil {
			return fail(126, "%v", err)
		}
		files, argv = append(files, extra...), pol.JoinArgs(argv)
		pol.HolderRoot = holderRoot(j.join)
		pid, err = confinedFork(pol, fork)
		for _, fd := range extra {
			syscall.Close(int(fd))
		}
		if err != nil && !errors.Is(err, errFork) {
			return fail(126, "%v", err)
		}
	case j.confined && pol.Namespaces():
		env = pol.Environ(env)
		if argv, err = namespaced(pol, argv, false); err != nil {
			return fail(126, "%v", err)
		}
		pid, err = fork()
	case j.confined:
		env = pol.Environ(env)
		pid, err = confinedFork(pol, fork)
		if err != nil && !errors.Is(err, errFork) {
			return fail(126, "%v", err)
		}
	default:
		pid, err = fork()
	}
	if err != nil {
		return fail(127, "cannot run %s: %v", argv[0], err)
	}
	return supervise(pid, status, j.grace)
}

// supervise reports the command's pid and stays until its tree is gone.
func supervise(pid int, status *os.File, grace time.Duration) int {
	// The app signals the helper only once it read the pid line, so the
	// handlers need not cost start-up time before the fork. The lifeline is
	// read through the runtime's poller.
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGUSR1, syscall.SIGINT, syscall.SIGQUIT)
	syscall.SetNonblock(LifelineFD, true)
	lifeline := os.NewFile(LifelineFD, "lifeline")
	report(status, MsgPID, strconv.Itoa(pid))
	releaseStdio()
	s := &state{self: os.Getpid(), shell: pid, code: -1}
	return s.loop(sigs, lifeline, status, grace)
}

type state struct {
	self, shell int
	code        int
	shellGone   atomic.Bool // reaped: its pid may name another process now
}

// loop reaps children until none is left, blocked in wait4 so that the
// shell's end is reported with no hop between threads; control handles
// signals and the lifeline meanwhile.
func (s *state) loop(sigs <-chan os.Signal, lifeline io.Reader, status io.Writer, grace time.Duration) int {
	go s.control(sigs, lifeline, grace)
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil { // ECHILD: no child left
			return max(s.code, 0)
		}
		if pid == s.shell {
			s.code = ws.ExitStatus()
			if ws.Signaled() {
				s.code = 128 + int(ws.Signal())
			}
			s.shellGone.Store(true)
			report(status, MsgExit, strconv.Itoa(s.code))
		}
	}
}

// control kills the command's processes when told to (SIGTERM, SIGHUP,
// SIGUSR1) or when the app goes away (the lifeline ends); it runs until the
// helper exits.
func (s *state) control(sigs <-chan os.Signal, lifeline io.Reader, grace time.Duration) {
	gone := make(chan struct{})
	go func() { io.Copy(io.Discard, lifeline); close(gone) }()
	var killTick <-chan time.Time
	var graceEnd <-chan time.Time
	kill := func() {
		if killTick == nil {
			killTick = time.NewTicker(50 * time.Millisecond).C
		}
		s.signalAll(syscall.SIGKILL)
	}
	for {
		select {
		case sig := <-sigs:
			switch sig {
			case syscall.SIGTERM, syscall.SIGHUP:
				s.signalAll(syscall.SIGTERM)
			case syscall.SIGUSR1:
				kill()
			}
		case <-gone:
			gone = nil
			s.signalAll(syscall.SIGTERM)
			graceEnd = time.After(grace)
		case <-graceEnd:
			kill()
		case <-killTick:
			s.signalAll(syscall.SIGKILL)
		}
	}
}

// signalAll sends sig to the shell's group and to every descendant of the
// helper, whichever group or session it moved to.
func (s *state) signalAll(sig syscall.Signal) {
	if !s.shellGone.Load() {
		syscall.Kill(-s.shell, sig)
	}
	for _, pid := range descendants(s.self) {
		syscall.Kill(pid, sig)
	}
}

// descendants lists the processes below root, read from /proc.
func descendants(root int) []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	kids := map[int][]int{}
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if pp := ppid(pid); pp > 0 {
			kids[pp] = append(kids[pp], pid)
		}
	}
	var out []int
	queue := []int{root}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range kids[p] {
			out = append(out, c)
			queue = append(queue, c)
		}
	}
	return out
}

// ppid reads the parent of pid from /proc/<pid>/stat ("pid (comm) state
// ppid ..."; comm may hold spaces and parentheses).
func ppid(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := bytes.Fields(b[i+1:])
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(string(f[1]))
	return n
}

func report(w io.Writer, kind, text string) error {
	_, err := fmt.Fprintf(w, "%s %s\n", kind, text)
	return err
}

// releaseStdio points the helper's own stdin, stdout and stderr at
// /dev/null: the command's output pipes and terminal then end when the
// command's processes close them, not when the helper exits.
func releaseStdio() {
	null, err := syscall.Open("/dev/null", syscall.O_RDWR|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	for fd := 0; fd < 3; fd++ {
		syscall.Dup3(null, fd, 0)
	}
	syscall.Close(null)
}
