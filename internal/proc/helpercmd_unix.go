//go:build unix

package proc

import (
	"os"
	"os/exec"
	"syscall"
	"time"

	"gatehouse/internal/sandbox"
)

// HelperArgs are the supervisor helper's flags for one program: the grace
// between SIGTERM and SIGKILL when the app goes away, a terminal of its own
// (withPTY), and the sandbox policy when there is one. Every program the app
// starts under the helper (commands, MCP servers) gets its flags here, so a
// stronger policy applies to all of them alike.
func HelperArgs(grace time.Duration, withPTY bool, policy *sandbox.Policy) []string {
	args := []string{"-grace", grace.String()}
	if withPTY {
		args = append(args, "-pty")
	}
	if policy != nil {
		args = append(append(args, "-confine"), policy.Args()...)
	}
	return args
}

// HelperCommand returns a command that runs argv (argv[0] a path) under the
// supervisor helper at helper, confined by policy (nil: unconfined), for a
// caller that handles stdio itself (an MCP server speaking on stdin and
// stdout). life is the read end of a lifeline pipe whose write end the
// caller holds while the program may run: when it closes (the app exits or
// crashes) the helper ends the program's whole tree. The helper's status
// reports are discarded; to end the program, signal the helper (SIGTERM is
// forwarded to every descendant, SIGUSR1 kills them all: see
// package supervisor), never kill the helper itself.
func HelperCommand(helper string, policy *sandbox.Policy, grace time.Duration, argv []string, life *os.File) (*exec.Cmd, error) {
	status, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	args := append(HelperArgs(grace, false, policy), "--")
	cmd := exec.Command(helper, append(args, argv...)...)
	cmd.ExtraFiles = []*os.File{life, status} // fds 3 and 4
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	return cmd, nil
}
