package proc

import (
	"os"
	"os/exec"

	"gatehouse/internal/sandbox"
)

// launched is a shell started by launch, directly or under the supervisor.
type launched struct {
	pid      int             // the shell
	g        group           // what Stop kills
	policy   *sandbox.Policy // the sandbox's, nil: unconfined
	net      sandbox.NetCall // its identity at the network proxy, nil: none
	wait     func() int
	restored []string // set by wait: guarded paths the command changed, put back
}

// launch starts `shell -c command` in dir with stdio, in a process group of
// its own (withPTY: a session of its own whose controlling terminal is
// stdio[0]). With Options.Supervisor set, the shell runs under the helper,
// confined by Options.Sandbox's policy. Call with r.mu held.
func (r *Registry) launch(command, dir string, env []string, stdio [3]*os.File, withPTY, unconfined bool) (*launched, error) {
	shell := r.shellPath(env)
	if r.o.Supervisor != "" {
		return r.launchSupervised(shell, command, dir, env, stdio, withPTY, unconfined)
	}
	cmd := exec.Command(shell, "-c", command)
	cmd.Dir, cmd.Env = dir, env
	setStdio(cmd, stdio)
	cmd.SysProcAttr = execAttrs()
	if withPTY {
		cmd.SysProcAttr = ptyAttrs()
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	pid := cmd.Process.Pid
	g := group{pgid: pid}
	if withPTY {
		g.sid = pid
	}
	return &launched{pid: pid, g: g, wait: func() int { return exitCode(cmd.Wait()) }}, nil
}

// setStdio gives cmd the files of stdio; a nil one stays unset (/dev/null),
// never a typed nil in the interface.
func setStdio(cmd *exec.Cmd, stdio [3]*os.File) {
	if stdio[0] != nil {
		cmd.Stdin = stdio[0]
	}
	if stdio[1] != nil {
		cmd.Stdout = stdio[1]
	}
	if stdio[2] != nil {
		cmd.Stderr = stdio[2]
	}
}

// Policy is the sandbox policy a command started now in dir would get, nil
// when it would run unconfined (for the approval dialog).
func (r *Registry) Policy(dir string) *sandbox.Policy {
	if r.o.Supervisor == "" || r.o.Sandbox == nil {
		return nil
	}
	return r.o.Sandbox(dir)
}

// Confined reports whether a command started now in dir would run confined
// by the sandbox (for the approval dialog). The setting may change before
// the command starts; ExecResult.Confined and Info.Confined tell what was.
func (r *Registry) Confined(dir string) bool {
	return r.o.Supervisor != "" && r.o.Sandbox != nil && r.o.Sandbox(dir) != nil
}
