//go:build unix

package proc

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/wire"
)

// supervisor is a running helper: see package supervisor.
type supervisor struct {
	proc *os.Process
	done chan struct{} // closed once the helper was reaped
}

func (s *supervisor) running() bool {
	if s == nil {
		return false
	}
	select {
	case <-s.done:
		return false
	default:
		return true
	}
}

// waitDone returns once the helper was reaped.
func (s *supervisor) waitDone() { <-s.done }

// signal asks the helper to end its command: SIGTERM forwards SIGTERM to
// every descendant, SIGKILL becomes SIGUSR1 (the helper kills them all and
// exits; killing the helper itself would orphan them).
func (s *supervisor) signal(sig syscall.Signal) {
	if sig == syscall.SIGKILL {
		sig = syscall.SIGUSR1
	}
	_ = s.proc.Signal(sig) // a pidfd: never reaches a reused pid
}

// lifeline returns the read end of the registry's lifeline pipe, made on
// first use; the registry holds the write end until Close, and never
// writes: every helper sees end of file once the app is gone. Call with
// r.mu held.
func (r *Registry) lifeline() (*os.File, error) {
	if r.lifeR == nil {
		rd, w, err := os.Pipe()
		if err != nil {
			return nil, err
		}
		r.lifeR, r.lifeW = rd, w
	}
	return r.lifeR, nil
}

// supervisorArgs are the helper's flags for a command in dir, and the
// policy confining it (nil: none; unconfined: the user chose none for this
// one call).
func (r *Registry) supervisorArgs(dir string, withPTY, unconfined bool) (args []string, pol *sandbox.Policy) {
	if r.o.Sandbox != nil && !unconfined {
		pol = r.o.Sandbox(dir)
		// The network's allow-list mode: the session's own servers stay
		// reachable to its later commands.
		r.netPolicy(pol)
	}
	return HelperArgs(r.o.KillGrace, withPTY, pol), pol
}

// helper is a started helper process.
type helper struct {
	sup     *supervisor
	statR   *os.File
	waitErr error    // how it ended; read after sup.done
	sock    *os.File // a spare's request socket (the app's end), else nil
	// aheadKey, for a spare that made a bubblewrap of its own ahead, is
	// the HolderKey of the policy it made it for (see fits).
	aheadKey string
}

// startHelper starts the helper with args in dir; a spare gets the request
// socket as fd 5. Call with life, the lifeline's read end.
func (r *Registry) startHelper(life *os.File, args []string, dir string, env []string, stdio [3]*os.File, spare bool) (*helper, error) {
	statR, statW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(r.o.Supervisor, args...)
	cmd.Dir, cmd.Env = dir, env
	setStdio(cmd, stdio)
	cmd.ExtraFiles = []*os.File{life, statW} // fds 3 and 4
	h := &helper{statR: statR}
	var child *os.File
	if spare {
		// Close-on-exec before any other fork sees them (ForkLock, as os does).
		syscall.ForkLock.RLock()
		fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_SEQPACKET, 0)
		if err == nil {
			syscall.CloseOnExec(fds[0])
			syscall.CloseOnExec(fds[1])
		}
		syscall.ForkLock.RUnlock()
		if err != nil {
			statR.Close()
			statW.Close()
			return nil, err
		}
		h.sock, child = os.NewFile(uintptr(fds[0]), "request"), os.NewFile(uintptr(fds[1]), "request")
		cmd.ExtraFiles = append(cmd.ExtraFiles, child) // fd 5
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	statW.Close()
	if child != nil {
		child.Close()
	}
	if err != nil {
		h.discard()
		return nil, fmt.Errorf("supervisor helper: %w", err)
	}
	h.sup = &supervisor{proc: cmd.Process, done: make(chan struct{})}
	go func() { h.waitErr = cmd.Wait(); close(h.sup.done) }()
	return h, nil
}

// discard drops a helper not given a command: a spare reads end of file
// and exits (its Wait goroutine reaps it).
func (h *helper) discard() {
	if h.sock != nil {
		h.sock.Close()
	}
	h.statR.Close()
}

// send hands a spare its command and stdio; false: it could not, start a
// helper of its own.
func (h *helper) send(req wire.Request, stdio [3]*os.File) bool {
	b, err := json.Marshal(req)
	if err != nil || len(b) > wire.MaxRequest {
		return false
	}
	fds := make([]int, 3)
	for i, f := range stdio {
		if f == nil {
			null, err := os.Open(os.DevNull)
			if err != nil {
				return false
			}
			defer null.Close()
			f = null
		}
		fds[i] = int(f.Fd())
	}
	err = syscall.Sendmsg(int(h.sock.Fd()), b, syscall.UnixRights(fds...), nil, 0)
	h.sock.Close()
	h.sock = nil
	return err == nil
}

// launchSupervised runs the command under a helper: the spare started
// ahead when there is one, else a new one; then a new spare is started for
// the next command. Call with r.mu held.
func (r *Registry) launchSupervised(shell, command, dir string, env []string, stdio [3]*os.File, withPTY, unconfined bool) (*launched, error) {
	life, err := r.lifeline()
	if err != nil {
		return nil, err
	}
	args, pol := r.supervisorArgs(dir, withPTY, unconfined)
	var guard *sandbox.Guard
	if pol != nil && len(pol.Guarded) > 0 {
		guard = sandbox.NewGuard(pol.Guarded)
	}
	holderKey := ""
	if hp := r.holderFor(pol); hp > 0 {
		args = append(args, wire.JoinFlag, strconv.Itoa(hp))
		holderKey = r.hold.key
	}
	args = append(args, "--", shell, "-c", command)
	var netCall sandbox.NetCall
	if pol != nil && pol.OpenNet != nil {
		// Its identity at the proxy rides in the environment, not the
		// flags: a spare started with the same policy still fits.
		netCall = pol.OpenNet()
		env = append(slices.Clip(env), netCall.Env()...)
	}
	// A spare on its way is nearer than a new helper (commands in a row).
	for r.spare == nil && r.refilling {
		r.spareReady.Wait()
	}
	if r.closed {
		closeNet(netCall)
		return nil, ErrClosed
	}
	var h *helper
	if sp := r.spare; sp != nil {
		r.spare = nil
		if !sp.fits(pol) {
			sp.discard()
		} else if sp.send(wire.Request{Args: args, Env: env, Dir: dir}, stdio) {
			h = sp
		} else {
			sp.discard()
		}
	}
	if h == nil {
		if h, err = r.startHelper(life, args, dir, env, stdio, false); err != nil {
			closeNet(netCall)
			return nil, err
		}
	}
	r.lastDir = dir
	ended := r.scheduleRefill(pol, holderKey)
	sup, statR := h.sup, h.statR
	lines := bufio.NewReader(statR)
	kind, text := readStatus(lines)
	if kind != wire.MsgPID {
		<-sup.done
		statR.Close()
		closeNet(netCall)
		if kind == wire.MsgError {
			return nil, errors.New(text)
		}
		return nil, fmt.Errorf("supervisor helper ended before starting the command (%v)", h.waitErr)
	}
	pid, _ := strconv.Atoi(text)
	g := group{pgid: pid, sup: sup}
	if withPTY {
		g.sid = pid
	}
	var once sync.Once
	code := -1
	l := &launched{pid: pid, g: g, policy: pol, net: netCall}
	if netCall != nil {
		// The identity lasts as long as the command's tree (a server it
		// put in the background keeps reaching the web), not its shell.
		go func() { sup.waitDone(); netCall.Close() }()
	}
	l.wait = func() int {
		once.Do(func() {
			defer statR.Close()
			if guard != nil {
				defer func() { l.restored = guard.Restore() }()
			}
			for {
				k, t := readStatus(lines)
				if k == wire.MsgExit {
					code, _ = strconv.Atoi(t)
					ended()
					return
				}
				if k == "" { // the helper is gone without a word: killed
					ended()
					<-sup.done
					code = exitCode(h.waitErr)
					return
				}
			}
		})
		return code
	}
	return l, nil
}

func closeNet(c sandbox.NetCall) {
	if c != nil {
		c.Close()
	}
}

// livePorts are the TCP ports the registry's processes (those started and
// the groups of Exec calls still alive) listen on now. Call with r.mu held.
func (r *Registry) livePorts() []int {
	var gs []group
	for _, p := range r.procs {
		if p.running() {
			gs = append(gs, p.g)
		}
	}
	for g := range r.execs {
		gs = append(gs, g)
	}
	if len(gs) == 0 {
		return nil
	}
	var pids []int
	for _, ps := range membersOf(gs) {
		pids = append(pids, ps...)
	}
	return listeningPorts(pids)
}

// readStatus reads one "kind text" line of the helper's status pipe; kind
// is "" at end of file.
func readStatus(r *bufio.Reader) (kind, text string) {
	line, err := r.ReadString('\n')
	if err != nil && line == "" {
		return "", ""
	}
	kind, text, _ = strings.Cut(strings.TrimSuffix(line, "\n"), " ")
	return kind, text
}
