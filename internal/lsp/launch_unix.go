//go:build unix

package lsp

import (
	"errors"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"gatehouse/internal/proc"
	"gatehouse/internal/sandbox"
)

// plainLaunch starts argv as a child in a process group of its own; Stop
// kills the group.
func plainLaunch(argv, env []string, dir string) (Launched, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(cmd.SysProcAttr)
	cmd.WaitDelay = time.Second
	return Launched{Cmd: cmd, Stop: func() { killGroup(cmd, false) }}, nil
}

// Helper launches servers under the supervisor helper, confined by
// Policy: the way a session's commands and a workspace's MCP servers run.
// The helper ends a server's whole tree when Close (or this process's
// death) closes the lifeline, so no server outlives the app.
type Helper struct {
	Path   string
	Policy *sandbox.Policy

	mu     sync.Mutex
	lifeR  *os.File
	lifeW  *os.File
	closed bool
}

// Launch implements Launcher.
func (h *Helper) Launch(argv, env []string, dir string) (Launched, error) {
	return h.LaunchWith(h.Path, h.Policy, argv, env, dir)
}

// LaunchWith is Launch under the helper at path, confined by policy (the
// caller builds it for each start).
func (h *Helper) LaunchWith(path string, policy *sandbox.Policy, argv, env []string, dir string) (Launched, error) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return Launched{}, errors.New("the session's language servers are stopped")
	}
	if h.lifeR == nil {
		r, w, err := os.Pipe()
		if err != nil {
			h.mu.Unlock()
			return Launched{}, err
		}
		h.lifeR, h.lifeW = r, w
	}
	life := h.lifeR
	h.mu.Unlock()
	cmd, err := proc.HelperCommand(path, policy, time.Second, argv, life)
	if err != nil {
		return Launched{}, err
	}
	cmd.Dir, cmd.Env = dir, env
	cmd.WaitDelay = time.Second
	return Launched{Cmd: cmd, Stop: func() { killGroup(cmd, true) }, Confined: policy != nil}, nil
}

// Close ends the lifeline: call it after the manager closed.
func (h *Helper) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	if h.lifeW != nil {
		h.lifeW.Close()
		h.lifeR.Close()
		h.lifeR, h.lifeW = nil, nil
	}
}

// killGroup ends the process group of cmd and waits (boundedly) until it
// is empty. A helper is asked first (SIGUSR1) to kill the server's tree,
// which may have left the group (bubblewrap's namespaces).
func killGroup(cmd *exec.Cmd, helper bool) {
	if cmd.Process == nil {
		return
	}
	pgid := cmd.Process.Pid
	empty := func(d time.Duration) {
		deadline := time.Now().Add(d)
		for syscall.Kill(-pgid, 0) == nil && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
	}
	if helper && cmd.Process.Signal(syscall.SIGUSR1) == nil {
		empty(2 * time.Second)
	}
	if err := syscall.Kill(-pgid, syscall.SIGKILL); err != nil {
		if !errors.Is(err, syscall.ESRCH) {
			_ = cmd.Process.Kill()
		}
		return
	}
	empty(2 * time.Second)
}
