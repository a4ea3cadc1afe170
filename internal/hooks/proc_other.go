//go:build !unix

package hooks

import "os/exec"

// ownGroup: elsewhere a hook has no group of its own.
func ownGroup(*exec.Cmd) {}

// killGroup kills the hook's process only.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
