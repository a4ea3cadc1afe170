package bash

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gatehouse/internal/proc"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/tools"
)

// execResult is what exec returns; on timeout it is also an error result,
// with ok and error set beside the output the command printed.
type execResult struct {
	OK         *bool        `json:"ok,omitempty"`
	Error      *tools.Error `json:"error,omitempty"`
	Command    string       `json:"command"`
	Cwd        string       `json:"cwd"`
	ExitCode   int          `json:"exitCode"`
	Stdout     string       `json:"stdout"`
	Stderr     string       `json:"stderr"`
	TimedOut   bool         `json:"timedOut"`
	DurationMs int64        `json:"durationMs"`
	Truncated  bool         `json:"truncated"`
	// Sandbox explains a refusal the OS sandbox may have caused.
	Sandbox string `json:"sandbox,omitempty"`
	// Unconfined says the user ran this command outside the sandbox.
	Unconfined string `json:"unconfined,omitempty"`
	// Network, in the network's allow-list mode, lists the domains the
	// command reached through the proxy and those the proxy refused.
	Network *netUse `json:"network,omitempty"`
}

// netUse is a command's use of the network proxy; the card offers to
// allow each refused domain for the session.
type netUse struct {
	Reached []string `json:"reached,omitempty"`
	Refused []string `json:"refused,omitempty"`
	// Note explains the refusals to the model.
	Note string `json:"note,omitempty"`
}

// netUseOf is what a command's result says of its proxy use, nil when it
// used none.
func netUseOf(n *proc.NetUse) *netUse {
	if n == nil || len(n.Reached)+len(n.Refused) == 0 {
		return nil
	}
	u := &netUse{Reached: n.Reached, Refused: n.Refused}
	if len(n.Refused) > 0 {
		u.Note = "Gatehouse's network proxy refused " + strings.Join(n.Refused, ", ") + ": not on the user's network allow-list " +
			"(Settings → Network). Only the user can allow a domain (this call's card offers it for the session): ask them, or do without it."
	}
	return u
}

// exec runs a to completion; unconfined (the user chose so in the dialog)
// runs it outside the OS sandbox.
func (t *Tool) exec(ctx context.Context, a args, unconfined bool) (tools.Result, error) {
	dir, res, ok := t.resolve(a.Cwd)
	if !ok {
		return res, nil
	}
	timeout := t.c.DefaultTimeout
	if a.TimeoutMs != nil {
		timeout = min(time.Duration(*a.TimeoutMs)*time.Millisecond, t.c.MaxTimeout)
	}
	stdout, stderr := newCapture(t.c.Head, t.c.Tail), newCapture(t.c.Head, t.c.Tail)
	r, err := t.c.Registry.Exec(ctx, proc.ExecSpec{Command: a.Command, Dir: dir, Timeout: timeout, Stdout: stdout, Stderr: stderr, Unconfined: unconfined})
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, err
		}
		return tools.FailErr(fmt.Errorf("cannot run the command: %w", err), tools.CodeIOError), nil
	}
	out := execResult{Command: a.Command, Cwd: dir, ExitCode: r.ExitCode, TimedOut: r.TimedOut, DurationMs: r.Duration.Milliseconds()}
	if unconfined {
		out.Unconfined = "The user chose to run this one command outside the OS sandbox; later commands run confined again."
	}
	var cutOut, cutErr bool
	out.Stdout, cutOut = stdout.String()
	out.Stderr, cutErr = stderr.String()
	out.Truncated = cutOut || cutErr
	out.Network = netUseOf(r.Network)
	if r.Confined && (r.ExitCode != 0 || len(r.Restored) > 0) {
		out.Sandbox = sandbox.Explain(r.Policy, r.Restored, out.Stdout, out.Stderr)
	}
	if !r.TimedOut {
		return tools.OK(out)
	}
	no := false
	out.OK = &no
	out.Error = &tools.Error{Code: tools.CodeTimeout, Message: fmt.Sprintf(
		"the command timed out after %v and its whole process group was killed; for a long-running command (server, watcher) use action start, then logs",
		timeout)}
	res, err = tools.OK(out)
	res.IsError = true
	return res, err
}

// resolve checks cwd against the workspace boundary.
func (t *Tool) resolve(cwd string) (string, tools.Result, bool) {
	dir, err := t.c.Dirs.ResolveDir(cwd)
	if err != nil {
		return "", tools.FailErr(fmt.Errorf("cwd %q refused: %w", cwd, err), tools.CodeOutsideWorkspace), false
	}
	return dir, tools.Result{}, true
}
