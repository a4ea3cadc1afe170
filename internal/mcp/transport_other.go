//go:build !unix

package mcp

import "os/exec"

// ownGroup: there are no process groups here; a server is a plain child.
func ownGroup(*exec.Cmd) {}

// killGroup kills the server's process, when it was started; one already
// gone is not an error. What the server started itself (npx's node) is not
// reached: no process group or job object holds it here. (No server runs
// under the supervisor helper here: proc.HelperCommand refuses, so a
// workspace's own servers, which run only confined, do not start.)
func killGroup(cmd *exec.Cmd) {
	if cmd == nil || cmd.Process == nil {
		return
	}
	_ = cmd.Process.Kill()
}
