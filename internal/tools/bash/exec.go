package bash

import (
	"context"
	"fmt"
	"strings"
	"time"

	"gatehouse/internal/proc"
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
}

// Words of the errors a write refused by the sandbox gives (EACCES, EPERM,
// and EROFS from tools that map them).
var refusals = []string{"Permission denied", "Operation not permitted", "Read-only file system", "EACCES", "EPERM"}

// sandboxNote returns the note added to the result of a confined command
// that failed with a refusal in its output, "" for none.
func sandboxNote(outs ...string) string {
	for _, o := range outs {
		for _, w := range refusals {
			if strings.Contains(o, w) {
				return "This command ran confined by the OS sandbox: it may write only in the workspace, the temp folder, " +
					"the session's scratch folder and tool caches (~/.npm, ~/.cache, Go's caches, ~/.cargo, ...). A \"" + w +
					"\" above may be the sandbox refusing a write elsewhere. Work inside the workspace; only the user can turn the sandbox off, in Settings."
			}
		}
	}
	return ""
}

func (t *Tool) exec(ctx context.Context, a args) (tools.Result, error) {
	dir, res, ok := t.resolve(a.Cwd)
	if !ok {
		return res, nil
	}
	timeout := t.c.DefaultTimeout
	if a.TimeoutMs != nil {
		timeout = min(time.Duration(*a.TimeoutMs)*time.Millisecond, t.c.MaxTimeout)
	}
	stdout, stderr := newCapture(t.c.Head, t.c.Tail), newCapture(t.c.Head, t.c.Tail)
	r, err := t.c.Registry.Exec(ctx, proc.ExecSpec{Command: a.Command, Dir: dir, Timeout: timeout, Stdout: stdout, Stderr: stderr})
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, err
		}
		return tools.FailErr(fmt.Errorf("cannot run the command: %w", err), tools.CodeIOError), nil
	}
	out := execResult{Command: a.Command, Cwd: dir, ExitCode: r.ExitCode, TimedOut: r.TimedOut, DurationMs: r.Duration.Milliseconds()}
	var cutOut, cutErr bool
	out.Stdout, cutOut = stdout.String()
	out.Stderr, cutErr = stderr.String()
	out.Truncated = cutOut || cutErr
	if r.Confined && r.ExitCode != 0 {
		out.Sandbox = sandboxNote(out.Stdout, out.Stderr)
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
