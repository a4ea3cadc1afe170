//go:build unix

package mcp

import (
	"errors"
	"os/exec"
	"syscall"
	"time"
)

// ownGroup puts a server in a process group of its own, so closing it
// reaches the grandchildren npx and shells leave.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills the process group of cmd, when it was started, and waits
// (boundedly) until no process of it is left; a group already gone is not
// an error.
func killGroup(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	pgid := cmd.Process.Pid
	if supervised(cmd) && endHelper(cmd) == nil {
		// Killing the helper would orphan the server: the helper kills
		// its tree, then exits (its group then empties).
		deadline := time.Now().Add(2 * time.Second)
		for syscall.Kill(-pgid, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}
	err := syscall.Kill(-pgid, syscall.SIGKILL)
	if err != nil {
		if !errors.Is(err, syscall.ESRCH) {
			_ = cmd.Process.Kill()
		}
		return
	}
	// SIGKILL is delivered asynchronously: wait for the group to empty, so a
	// closed server has no process left when Close returns.
	deadline := time.Now().Add(2 * time.Second)
	for syscall.Kill(-pgid, 0) == nil && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
}

// supervised reports whether cmd is a confined server's helper (see
// proc.HelperCommand: it carries the lifeline and status fds).
func supervised(cmd *exec.Cmd) bool { return len(cmd.ExtraFiles) == 2 }

// endHelper asks a confined server's helper to kill the server's whole
// tree (SIGUSR1), which it does before it exits.
func endHelper(cmd *exec.Cmd) error { return cmd.Process.Signal(syscall.SIGUSR1) }
