// Package gitview is the window's view of a git workspace: the working tree
// against HEAD (staged and unstaged), per file and per hunk stage, unstage
// and discard, and commit. Every operation runs the user's own `git`
// command (their config, identity, signing and hooks); nothing here writes
// inside .git by hand. A hunk operation is a patch generated from the diff
// the user saw, applied with `git apply` (to the index for stage and
// unstage, to the working tree for discard).
//
// # Untrusted folders
//
// A downloaded archive can ship a .git/config that runs programs when git
// merely looks at the folder: core.fsmonitor, a diff textconv or external
// diff, a clean filter, hooks. Until the user trusts the repository's git
// settings (trust.KindGit), every git the app runs is in gitcmd's safe
// mode (hooks, fsmonitor, filters, textconv, external diff, merge drivers,
// signing, credential helpers off; submodules ignored), and diffs pass
// `--no-textconv --no-ext-diff` in any case. Committing runs hooks and
// signing, so it needs that trust.
//
// # Concurrency
//
// A Repo is safe for concurrent use; operations that change the index or
// the working tree run one at a time.
package gitview

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"

	"gatehouse/internal/gitcmd"
)

// Repo is one git working tree, run through the git command.
type Repo struct {
	// Dir is the working tree's top folder.
	Dir string
	// Prefix is the workspace's folder below Dir ("" or "sub/dir/"): the
	// view shows only its files, by paths relative to it.
	Prefix string
	// Main is the main worktree's top folder, whose .git holds the config
	// and hooks git runs (Dir itself, unless Dir is a linked worktree);
	// "" when there is none (trust is then impossible).
	Main string
	// Trusted reports whether the user trusts this repository's git
	// settings; nil or false: git runs in safe mode (see the package doc).
	Trusted func() bool
	// Git is the git program (default "git", found on PATH).
	Git string

	mu sync.Mutex // one change of the index or working tree at a time
}

// Error is a git command that failed: its arguments and what it printed.
type Error = gitcmd.Error

// ErrNotRepo says the folder is not inside a git working tree.
var ErrNotRepo = errors.New("this folder is not a git repository")

func (r *Repo) safe() bool { return r.Trusted == nil || !r.Trusted() }

// Safe says whether git runs in safe mode now (the folder is untrusted).
func (r *Repo) Safe() bool { return r.safe() }

// run runs git with args in the working tree, in gitcmd's safe mode
// while the folder is untrusted, and returns its standard output.
func (r *Repo) run(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	return gitcmd.Git{Program: r.Git, Trusted: r.Trusted}.Run(ctx, r.Dir, stdin, args...)
}

// diffFlags are the options every diff the app shows passes: no
// textconv, no external diff, no colour, whatever the config says.
var diffFlags = append([]string{"--no-color", "--no-renames", "--src-prefix=a/", "--dst-prefix=b/"}, gitcmd.DiffFlags...)

func (r *Repo) exec(ctx context.Context, pre []string, stdin []byte, args ...string) ([]byte, error) {
	return gitcmd.Run(ctx, r.Git, r.Dir, pre, stdin, args...)
}

// Open returns the repository whose working tree holds the workspace
// folder dir, or ErrNotRepo. Finding it runs nothing the repository
// configures.
func Open(ctx context.Context, dir string, trusted func() bool) (*Repo, error) {
	r := &Repo{Dir: dir}
	out, err := r.exec(ctx, gitcmd.ReadOnly, nil, "rev-parse", "--show-toplevel", "--path-format=absolute", "--git-common-dir", "--show-prefix")
	if err != nil {
		return nil, ErrNotRepo
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) < 2 {
		return nil, ErrNotRepo
	}
	r.Dir, r.Trusted = lines[0], trusted
	if filepath.Base(lines[1]) == ".git" {
		r.Main = filepath.Dir(lines[1])
	}
	if len(lines) > 2 {
		r.Prefix = lines[2]
	}
	return r, nil
}
