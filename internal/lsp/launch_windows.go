package lsp

import (
	"os/exec"
	"time"
)

// plainLaunch starts argv as a plain child; Stop kills it.
func plainLaunch(argv, env []string, dir string) (Launched, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = dir, env
	cmd.WaitDelay = time.Second
	return Launched{Cmd: cmd, Stop: func() {
		if cmd.Process != nil {
			_ = cmd.Process.Kill()
		}
	}}, nil
}
