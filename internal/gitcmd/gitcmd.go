// Package gitcmd is the one way the app runs the user's git command, for
// every package that drives a repository (gitview, worktree): one way to
// start it, with the same environment and the same error, so no caller
// forgets a setting.
//
// Every run passes `--no-pager -c core.quotePath=false` and runs with
// GIT_TERMINAL_PROMPT=0 (never wait on a password prompt),
// GIT_OPTIONAL_LOCKS=0 (looking does not rewrite the index), LC_ALL=C
// (messages and output parsed in one language) and GIT_EDITOR=true (never
// open an editor), and without the app's secrets in its environment (the
// API key, OPENAI_*, GATEHOUSE_*).
//
// # Safe mode
//
// A cloned or downloaded repository's .git/config (and every file it
// includes) can name programs git starts while it merely looks at, checks
// out, merges or commits in the folder. Until the user trusts the
// repository's git settings, every git the app runs goes through Git.Run
// in safe mode (SafeOptions): hooks off (core.hooksPath to an empty
// place), fsmonitor off, every filter driver emptied, every textconv,
// external diff and merge driver replaced by git's own, no signing and no
// signature checks (gpg.program emptied), no credential helper or askpass,
// no core.sshCommand, submodules not recursed, pager off, automatic
// maintenance off. The dynamic names (filter.<x>, diff.<x>, merge.<x>,
// credential.<url>, gpg.<format>, trailer.<x>) are read from git's own
// listing of its config right before the run, includes followed, so a
// driver named only in an included file is emptied too; the fixed names
// are overridden whatever the listing says. What safe mode cannot do (a
// commit or merge whose hooks or signing the user expects) is the
// caller's to refuse until trust is given (ErrUntrusted).
//
// Package-level Run runs git with the repository's settings as they are:
// only for a repository whose settings are trusted, or with SafeOptions in
// pre.
package gitcmd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
)

// ReadOnly are the options of a call that only finds the repository
// (rev-parse): its config cannot start its fsmonitor program. Anything
// else in an untrusted repository runs through Git in safe mode.
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
// standard output; a failure is an *Error naming args. It applies no safe
// mode of its own (see the package doc).
func Run(ctx context.Context, git, dir string, pre []string, stdin []byte, args ...string) ([]byte, error) {
	return run(ctx, git, dir, pre, nil, nil, stdin, args...)
}

// run is Run with the variables drop names removed from the environment
// and env added.
func run(ctx context.Context, git, dir string, pre, drop, env []string, stdin []byte, args ...string) ([]byte, error) {
	if git == "" {
		git = "git"
	}
	all := append(append([]string{"--no-pager", "-c", "core.quotePath=false"}, pre...), args...)
	cmd := exec.CommandContext(ctx, git, all...)
	cmd.Dir = dir
	cmd.Env = append(Environ(os.Environ(), drop...), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "LC_ALL=C", "GIT_EDITOR=true", "GIT_SEQUENCE_EDITOR=true")
	cmd.Env = append(cmd.Env, env...)
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

// Environ is env without the app's secrets (OPENAI_*, GATEHOUSE_*) and
// without the names in drop: what git, and anything it starts, sees.
func Environ(env []string, drop ...string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "OPENAI_") || strings.HasPrefix(name, "GATEHOUSE_") || slices.Contains(drop, name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}
