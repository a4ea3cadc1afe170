//go:build unix

package proc

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
	"time"

	"github.com/creack/pty"
)

// group names the processes a kill reaches: every process whose process
// group is pgid, and, when sid > 0, every process of session sid (a process
// under a pty that made its own group with job control).
//
// A group run under the supervisor helper (sup) is the helper's to kill
// while it runs: it reaches every descendant, even one that left the group
// and the session.
type group struct {
	pgid int
	sid  int
	sup  *supervisor
}

// execAttrs puts an exec'd shell in a process group of its own.
func execAttrs() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// ptyAttrs make a shell the leader of a new session whose controlling
// terminal is its stdin.
func ptyAttrs() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
}

// openPTY returns a new pty's master and terminal sides, sized rows x cols.
func openPTY(rows, cols uint16) (master, tty *os.File, err error) {
	master, tty, err = pty.Open()
	if err != nil {
		return nil, nil, err
	}
	if err := pty.Setsize(master, &pty.Winsize{Rows: rows, Cols: cols}); err != nil {
		master.Close()
		tty.Close()
		return nil, nil, err
	}
	return master, tty, nil
}

func resizePTY(f *os.File, rows, cols uint16) error {
	return pty.Setsize(f, &pty.Winsize{Rows: rows, Cols: cols})
}

// signalGroup sends sig to every process of g. Missing processes are fine.
func signalGroup(g group, sig syscall.Signal) {
	if g.sup.running() {
		g.sup.signal(sig)
		return
	}
	_ = syscall.Kill(-g.pgid, sig)
	if g.sid > 0 {
		for _, pid := range members(g) {
			_ = syscall.Kill(pid, sig)
		}
	}
}

// killGroups sends SIGTERM to every group, waits up to grace for them to be
// empty, then sends SIGKILL to those with a process left, and waits (bounded)
// until they are gone.
func killGroups(gs []group, grace time.Duration) {
	for _, g := range gs {
		signalGroup(g, syscall.SIGTERM)
	}
	left := waitEmpty(gs, grace)
	for _, g := range left {
		signalGroup(g, syscall.SIGKILL)
	}
	waitEmpty(left, 2*time.Second)
}

// waitEmpty polls until every group is empty or d passed; it returns the
// groups that still have a live process.
func waitEmpty(gs []group, d time.Duration) []group {
	deadline := time.Now().Add(d)
	for {
		var left []group
		for _, g := range gs {
			if alive(g) {
				left = append(left, g)
			}
		}
		if len(left) == 0 || !time.Now().Before(deadline) {
			return left
		}
		gs = left
		time.Sleep(15 * time.Millisecond)
	}
}

// exitCode turns a Wait result into an exit code, 128+n for signal n.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	return -1
}

// loginAttrs detaches the login shell from any terminal (new session).
func loginAttrs() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// killPIDs sends SIGTERM to the processes list returns, waits up to grace
// for none to be left, then sends SIGKILL to what list returns until none is
// left (bounded).
func killPIDs(list func() []int, grace time.Duration) {
	for _, pid := range list() {
		_ = syscall.Kill(pid, syscall.SIGTERM)
	}
	deadline := time.Now().Add(grace)
	for len(list()) > 0 && time.Now().Before(deadline) {
		time.Sleep(15 * time.Millisecond)
	}
	deadline = time.Now().Add(2 * time.Second)
	for {
		pids := list()
		if len(pids) == 0 || !time.Now().Before(deadline) {
			return
		}
		for _, pid := range pids {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(15 * time.Millisecond)
	}
}
