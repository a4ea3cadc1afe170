//go:build unix

package hooks

import (
	"os/exec"
	"syscall"
)

// ownGroup puts cmd in its own process group and makes cancelling it kill
// the whole group (a hook's children included).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
