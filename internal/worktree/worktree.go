// Package worktree gives a session a git worktree of its own: a branch
// gatehouse/<name> checked out in a folder beside the repository, so
// parallel sessions never write the same files. Its git data lives in the
// main repository's .git (objects, refs, worktrees/<name>). When the work
// is done it is merged into the branch it came from, kept as a branch, or
// discarded (worktree and branch removed).
//
// Everything runs through the user's git command (gitcmd), never by
// writing .git by hand, and in gitcmd's safe mode until the repository's
// git settings are trusted: making, listing, keeping and discarding a
// worktree run none of the programs an untrusted repository names (hooks,
// fsmonitor, filters, merge drivers, signing); a merge whose hooks or
// signing the settings ask for is refused until they are trusted
// (*gitcmd.NeedsTrust). The base branch a worktree came from is kept in the repository's
// config (`git config branch.gatehouse/<name>.gatehouseBase`).
//
// Where: <parent>/<repo>.worktrees/<name>, beside the repository. Not
// inside it (the workspace boundary and the file tree would see a second
// copy of every file) and not in Gatehouse's own folders, which the
// boundary refuses as a workspace.
package worktree

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"gatehouse/internal/gitcmd"
)

// BranchPrefix starts the name of every worktree session's branch.
const BranchPrefix = "gatehouse/"

// Worktree is one worktree session's folder and branch.
type Worktree struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	Branch string `json:"branch"`
	// Base is the branch it came from (merge goes there).
	Base string `json:"base"`
	// Missing is set when the folder was deleted behind git's back.
	Missing bool `json:"missing,omitempty"`
}

// Repo is a repository's main worktree, run through the git command.
type Repo struct {
	// Top is the main worktree's top folder.
	Top string
	// Git is the git program (default "git").
	Git string
	// Trusted reports, on each git run, whether the user trusts the
	// repository's git settings as they are now (trust.Store.GitTrust);
	// nil: never, git runs in safe mode.
	Trusted func() bool
}

// Error is a git command that failed: its arguments and what it printed.
type Error = gitcmd.Error

func (r *Repo) cmd() gitcmd.Git { return gitcmd.Git{Program: r.Git, Trusted: r.Trusted} }

// git runs a git command in dir, in safe mode until the repository's
// settings are trusted.
func (r *Repo) git(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := r.cmd().Run(ctx, dir, nil, args...)
	return string(out), err
}

// look runs a git command that only finds the repository (rev-parse).
func (r *Repo) look(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := gitcmd.Run(ctx, r.Git, dir, gitcmd.ReadOnly, nil, args...)
	return string(out), err
}

// Open finds the main worktree of the repository holding dir (dir may be
// a linked worktree of it).
func Open(ctx context.Context, dir string) (*Repo, error) {
	r := &Repo{}
	common, err := r.look(ctx, dir, "rev-parse", "--path-format=absolute", "--git-common-dir")
	if err != nil {
		return nil, errors.New("this folder is not a git repository")
	}
	common = strings.TrimSpace(common)
	if filepath.Base(common) != ".git" {
		return nil, fmt.Errorf("the repository at %s has no main worktree (a bare repository)", common)
	}
	r.Top = filepath.Dir(common)
	return r, nil
}

var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// CheckName refuses a name that is not a plain folder and branch name.
func CheckName(name string) error {
	if !validName.MatchString(name) || strings.Contains(name, "..") || strings.HasSuffix(name, ".lock") {
		return fmt.Errorf("worktree name %q: use letters, digits, '.', '_' and '-' (at most 64)", name)
	}
	return nil
}

// Dir is the folder worktrees of this repository go in: beside it.
func (r *Repo) Dir() string {
	return filepath.Join(filepath.Dir(r.Top), filepath.Base(r.Top)+".worktrees")
}

// BaseRef is the symbolic ref naming the branch worktree branch came from.
func BaseRef(branch string) string {
	return "refs/gatehouse/base/" + strings.TrimPrefix(branch, BranchPrefix)
}

// baseKey is where earlier versions kept the base: in the config.
func baseKey(branch string) string { return "branch." + branch + ".gatehouseBase" }

// ReadBase is the branch worktree branch came from ("" when unknown), read
// in dir with g.
func ReadBase(ctx context.Context, g gitcmd.Git, dir, branch string) string {
	if out, err := g.Run(ctx, dir, nil, "symbolic-ref", "--quiet", "--short", BaseRef(branch)); err == nil {
		return strings.TrimPrefix(strings.TrimSpace(string(out)), "heads/")
	}
	out, _ := g.Run(ctx, dir, nil, "config", "--get", baseKey(branch))
	return strings.TrimSpace(string(out))
}

// Create makes worktree name on a new branch gatehouse/<name> from base
// ("": the current branch), and copies into it the untracked files copy
// lists (workspace-relative, like ".env"; regular files only, a missing
// one skipped).
func (r *Repo) Create(ctx context.Context, name, base string, copy []string) (Worktree, error) {
	if err := CheckName(name); err != nil {
		return Worktree{}, err
	}
	if base == "" {
		b, err := r.git(ctx, r.Top, "symbolic-ref", "--quiet", "--short", "HEAD")
		if err != nil {
			return Worktree{}, errors.New("HEAD is detached: name the base branch to start the worktree from")
		}
		base = strings.TrimSpace(b)
	}
	w := Worktree{Name: name, Path: filepath.Join(r.Dir(), name), Branch: BranchPrefix + name, Base: base}
	if _, err := os.Lstat(w.Path); err == nil {
		return Worktree{}, fmt.Errorf("%s already exists", w.Path)
	}
	if err := os.MkdirAll(r.Dir(), 0o755); err != nil {
		return Worktree{}, err
	}
	if _, err := r.git(ctx, r.Top, "worktree", "add", "--quiet", "-b", w.Branch, w.Path, base); err != nil {
		return Worktree{}, err
	}
	if _, err := r.git(ctx, r.Top, "symbolic-ref", BaseRef(w.Branch), "refs/heads/"+base); err != nil {
		return w, err
	}
	for _, rel := range copy {
		if err := copyFile(r.Top, w.Path, rel); err != nil {
			return w, err
		}
	}
	return w, nil
}

// copyFile copies the regular file rel from one tree to the other; a
// missing file, a link or a path leaving the tree is skipped.
func copyFile(from, to, rel string) error {
	clean := filepath.Clean(filepath.FromSlash(rel))
	if filepath.IsAbs(clean) || clean == "." || strings.HasPrefix(clean, "..") {
		return fmt.Errorf("%q is not a path inside the repository", rel)
	}
	src := filepath.Join(from, clean)
	fi, err := os.Lstat(src)
	if err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	dst := filepath.Join(to, clean)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, fi.Mode().Perm())
}

// List returns the repository's worktree sessions.
func (r *Repo) List(ctx context.Context) ([]Worktree, error) {
	out, err := r.git(ctx, r.Top, "worktree", "list", "--porcelain")
	if err != nil {
		return nil, err
	}
	var ws []Worktree
	for _, block := range strings.Split(out, "\n\n") {
		var w Worktree
		for _, l := range strings.Split(block, "\n") {
			switch {
			case strings.HasPrefix(l, "worktree "):
				w.Path = strings.TrimPrefix(l, "worktree ")
			case strings.HasPrefix(l, "branch refs/heads/"):
				w.Branch = strings.TrimPrefix(l, "branch refs/heads/")
			case strings.HasPrefix(l, "prunable"):
				w.Missing = true
			}
		}
		name, ok := strings.CutPrefix(w.Branch, BranchPrefix)
		if !ok || w.Path == "" {
			continue
		}
		w.Name = name
		if _, err := os.Stat(w.Path); err != nil {
			w.Missing = true
		}
		w.Base = ReadBase(ctx, r.cmd(), r.Top, w.Branch)
		ws = append(ws, w)
	}
	return ws, nil
}

// Find returns worktree name.
func (r *Repo) Find(ctx context.Context, name string) (Worktree, error) {
	ws, err := r.List(ctx)
	if err != nil {
		return Worktree{}, err
	}
	for _, w := range ws {
		if w.Name == name {
			return w, nil
		}
	}
	return Worktree{}, fmt.Errorf("no worktree session %q in %s", name, r.Top)
}

// lines splits git's output into its non-empty lines.
func lines(out string) []string {
	var ls []string
	for _, l := range strings.Split(out, "\n") {
		if l = strings.TrimRight(l, "\r"); l != "" {
			ls = append(ls, l)
		}
	}
	return ls
}
