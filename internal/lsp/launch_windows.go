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

// Helper is the supervisor helper's launcher; Windows has no helper, so
// servers start as plain children.
type Helper struct {
	Path   string
	Policy any
}

// Launch implements Launcher.
func (h *Helper) Launch(argv, env []string, dir string) (Launched, error) {
	return plainLaunch(argv, env, dir)
}

// LaunchWith is Launch: no helper, no policy here.
func (h *Helper) LaunchWith(path string, policy any, argv, env []string, dir string) (Launched, error) {
	return plainLaunch(argv, env, dir)
}

// Close does nothing here.
func (h *Helper) Close() {}
