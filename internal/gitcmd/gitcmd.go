// Package gitcmd runs the user's git command for the packages that drive a
// repository (gitview, worktree): one way to start it, with the same
// environment and the same error, so no caller forgets a setting.
//
// Every run passes `--no-pager -c core.quotePath=false` and runs with
// GIT_TERMINAL_PROMPT=0 (never wait on a password prompt),
// GIT_OPTIONAL_LOCKS=0 (looking does not rewrite the index), LC_ALL=C
// (messages and output parsed in one language) and GIT_EDITOR=true (never
// open an editor). Callers add options before the subcommand in pre: ReadOnly
// for a call that only looks at a folder that may not be trusted.
package gitcmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// ReadOnly are the options of a git call that only looks: a repository's
// config cannot start its fsmonitor program. Diffs add DiffFlags.
var ReadOnly = []string{"-c", "core.fsmonitor=false"}

// DiffFlags keep a diff (or log -p) from running the programs a repository's
// config or attributes name: no textconv, no external diff.
var DiffFlags = []string{"--no-textconv", "--no-ext-diff"}

// Error is a git command that failed: its arguments and what it printed
// (its standard error, or its output when that is empty).
type Error struct {
	Args   []string
	Output string
	Err    error
}

func (e *Error) Error() string {
	out := strings.TrimSpace(e.Output)
	if out == "" {
		return fmt.Sprintf("git %s: %v", e.Args[0], e.Err)
	}
	return fmt.Sprintf("git %s: %s", e.Args[0], out)
}

func (e *Error) Unwrap() error { return e.Err }

// Run runs git (the program; "" is "git") in dir with pre before the
// subcommand and args, stdin on its input when not nil, and returns its
// standard output; a failure is an *Error naming args.
func Run(ctx context.Context, git, dir string, pre []string, stdin []byte, args ...string) ([]byte, error) {
	if git == "" {
		git = "git"
	}
	all := append(append([]string{"--no-pager", "-c", "core.quotePath=false"}, pre...), args...)
	cmd := exec.CommandContext(ctx, git, all...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_EDITOR=true")
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		out := stderr.String()
		if strings.TrimSpace(out) == "" {
			out = stdout.String()
		}
		return stdout.Bytes(), &Error{Args: args, Output: out, Err: err}
	}
	return stdout.Bytes(), nil
}
