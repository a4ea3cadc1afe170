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
type group struct {
	pgid int
	sid  int
}

// execAttrs puts an exec'd shell in a process group of its own.
func execAttrs() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// startPTY starts cmd as the leader of a new session whose controlling
// terminal is a new pty, and returns the pty's master side.
func startPTY(cmd *exec.Cmd, rows, cols uint16) (*os.File, error) {
	return pty.StartWithSize(cmd, &pty.Winsize{Rows: rows, Cols: cols})
}

func resizePTY(f *os.File, rows, cols uint16) error {
	return pty.Setsize(f, &pty.Winsize{Rows: rows, Cols: cols})
}

// signalGroup sends sig to every process of g. Missing processes are fine.
func signalGroup(g group, sig syscall.Signal) {
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
