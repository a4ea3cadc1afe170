//go:build unix

package hooks

import (
	"os"
	"sync"
	"syscall"
	"time"

	"gatehouse/internal/proc"
	"gatehouse/internal/sandbox"
)

// Confined returns the Launcher of a workspace's hooks: each runs as
// `sh -c COMMAND` under the supervisor helper at helper, confined by
// policy as the session's commands are (what the workspace supplies never
// runs unconfined). With no helper or policy it is nil: such hooks fail,
// saying so, and block where a failure blocks.
func Confined(helper string, policy *sandbox.Policy) Launcher {
	if helper == "" || policy == nil {
		return nil
	}
	return func(h Hook, dir string, env []string) (Launched, error) {
		lifeR, lifeW, err := os.Pipe()
		if err != nil {
			return Launched{}, err
		}
		cmd, err := proc.HelperCommand(helper, policy, time.Second, []string{"/bin/sh", "-c", h.Command}, lifeR)
		if err != nil {
			lifeR.Close()
			lifeW.Close()
			return Launched{}, err
		}
		cmd.Dir, cmd.Env = dir, env
		var mu sync.Mutex
		var late *time.Timer
		kill := func() {
			if cmd.Process == nil {
				return
			}
			cmd.Process.Signal(syscall.SIGUSR1) // the helper kills the hook's whole tree
			mu.Lock()
			late = time.AfterFunc(2*time.Second, func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
			mu.Unlock()
		}
		release := func() {
			mu.Lock()
			if late != nil {
				late.Stop()
			}
			mu.Unlock()
			lifeW.Close()
			lifeR.Close()
		}
		return Launched{Cmd: cmd, Kill: kill, Release: release}, nil
	}
}
