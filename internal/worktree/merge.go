package worktree

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"gatehouse/internal/gitcmd"
)

// ErrUncommitted refuses a merge while the worktree holds changes not
// committed: merge commits nothing for the user unless given a message.
var ErrUncommitted = errors.New("the worktree has uncommitted changes: commit them first, or give a commit message")

// Refused is a merge refused before anything changed, with the files why.
type Refused struct {
	Reason string
	Files  []string
}

func (e *Refused) Error() string {
	return fmt.Sprintf("%s: %s (nothing was changed)", e.Reason, strings.Join(e.Files, ", "))
}

// Unmerged is a discard that needs confirmation: the branch has commits
// its base does not.
type Unmerged struct {
	Commits []string // "abc1234 subject", oldest first
	// Uncommitted are the worktree's files with changes not committed.
	Uncommitted []string
}

func (e *Unmerged) Error() string {
	var parts []string
	if len(e.Commits) > 0 {
		parts = append(parts, fmt.Sprintf("the branch has %d commit(s) not merged: %s", len(e.Commits), strings.Join(e.Commits, "; ")))
	}
	if len(e.Uncommitted) > 0 {
		parts = append(parts, "the worktree has uncommitted changes to "+strings.Join(e.Uncommitted, ", "))
	}
	return strings.Join(parts, "; ")
}

// Merged is what a merge did.
type Merged struct {
	Base    string   `json:"base"`
	Commits []string `json:"commits"` // the commits it brought in, "hash subject"
}

// changed lists the paths git status reports in dir (untracked included).
func (r *Repo) changed(ctx context.Context, dir string) ([]string, error) {
	out, err := r.git(ctx, dir, "status", "--porcelain=v1", "-z", "--untracked-files=all")
	if err != nil {
		return nil, err
	}
	var paths []string
	recs := strings.Split(out, "\x00")
	for i := 0; i < len(recs); i++ {
		rec := recs[i]
		if len(rec) < 4 {
			continue
		}
		paths = append(paths, rec[3:])
		if rec[0] == 'R' || rec[0] == 'C' {
			i++ // the rename's source follows
			if i < len(recs) {
				paths = append(paths, recs[i])
			}
		}
	}
	return paths, nil
}

func (r *Repo) commits(ctx context.Context, from, to string) ([]string, error) {
	out, err := r.git(ctx, r.Top, "log", "--reverse", "--no-show-signature", "--format=%h %s", from+".."+to)
	if err != nil {
		return nil, err
	}
	return lines(out), nil
}

// Merge merges worktree name's branch into the branch it came from, in the
// main worktree, which must have that branch checked out. With commit
// non-empty, the worktree's uncommitted changes are committed first with
// that message; without, they refuse the merge. A main worktree with
// uncommitted changes to files the branch changes, or a merge that would
// conflict, is refused with the files named, before anything changes.
func (r *Repo) Merge(ctx context.Context, name, commit string) (Merged, error) {
	w, err := r.Find(ctx, name)
	if err != nil {
		return Merged{}, err
	}
	if w.Missing {
		return Merged{}, fmt.Errorf("the worktree %s is gone: discard it, or keep its branch", w.Path)
	}
	if w.Base == "" {
		return Merged{}, fmt.Errorf("the branch %s does not say which branch it came from", w.Branch)
	}
	// Merging commits: in safe mode, only when that leaves out nothing
	// the repository's settings would run (its hooks, signing, filters).
	if r.cmd().Safe() {
		skipped, err := r.cmd().Skipped(ctx, r.Top)
		if err != nil {
			return Merged{}, err
		}
		if len(skipped) > 0 {
			return Merged{}, &gitcmd.NeedsTrust{Skipped: skipped}
		}
	}
	head, err := r.git(ctx, r.Top, "symbolic-ref", "--quiet", "--short", "HEAD")
	if head = strings.TrimSpace(head); err != nil || head != w.Base {
		return Merged{}, fmt.Errorf("the main worktree is on %q, not %s: check out %s there to merge into it", head, w.Base, w.Base)
	}
	dirty, err := r.changed(ctx, w.Path)
	if err != nil {
		return Merged{}, err
	}
	if len(dirty) > 0 {
		if strings.TrimSpace(commit) == "" {
			return Merged{}, ErrUncommitted
		}
		if _, err := r.git(ctx, w.Path, "add", "-A"); err != nil {
			return Merged{}, err
		}
		if _, err := r.git(ctx, w.Path, "commit", "--quiet", "-m", commit); err != nil {
			return Merged{}, err
		}
	}
	commits, err := r.commits(ctx, w.Base, w.Branch)
	if err != nil {
		return Merged{}, err
	}
	if len(commits) == 0 {
		return Merged{Base: w.Base}, nil
	}
	// The main worktree's own uncommitted changes to files the branch changes.
	out, err := r.git(ctx, r.Top, slices.Concat([]string{"diff", "--name-only", "--no-renames"}, gitcmd.DiffFlags, []string{w.Base + "..." + w.Branch})...)
	if err != nil {
		return Merged{}, err
	}
	theirs := lines(out)
	mine, err := r.changed(ctx, r.Top)
	if err != nil {
		return Merged{}, err
	}
	var both []string
	for _, p := range mine {
		if slices.Contains(theirs, p) {
			both = append(both, p)
		}
	}
	if len(both) > 0 {
		return Merged{}, &Refused{Reason: "the main worktree has uncommitted changes to files the branch changes", Files: both}
	}
	// A merge that would conflict, found without touching anything.
	if out, err := r.git(ctx, r.Top, "merge-tree", "--write-tree", "--name-only", "--no-messages", w.Base, w.Branch); err != nil {
		files := lines(out)
		if len(files) > 1 {
			return Merged{}, &Refused{Reason: "merging would conflict in", Files: files[1:]}
		}
		return Merged{}, err
	}
	if _, err := r.git(ctx, r.Top, "merge", "--quiet", "--no-edit", "--no-ff", "-m", "Merge "+w.Branch+" into "+w.Base, w.Branch); err != nil {
		return Merged{}, err
	}
	return Merged{Base: w.Base, Commits: commits}, nil
}

// Losses is what discarding worktree name would lose: its branch's
// commits its base lacks and its uncommitted changes; nil when nothing.
func (r *Repo) Losses(ctx context.Context, name string) (*Unmerged, error) {
	w, err := r.Find(ctx, name)
	if err != nil {
		return nil, err
	}
	base := w.Base
	if base == "" {
		base = "HEAD"
	}
	commits, err := r.commits(ctx, base, w.Branch)
	if err != nil {
		return nil, err
	}
	var dirty []string
	if !w.Missing {
		if dirty, err = r.changed(ctx, w.Path); err != nil {
			return nil, err
		}
	}
	if len(commits)+len(dirty) == 0 {
		return nil, nil
	}
	return &Unmerged{Commits: commits, Uncommitted: dirty}, nil
}

// Discard removes worktree name's folder and its branch. While that would
// lose commits or uncommitted changes, it refuses with *Unmerged listing
// them, unless confirmed.
func (r *Repo) Discard(ctx context.Context, name string, confirmed bool) error {
	w, err := r.Find(ctx, name)
	if err != nil {
		return err
	}
	if !confirmed {
		if un, err := r.Losses(ctx, name); err != nil || un != nil {
			if err != nil {
				return err
			}
			return un
		}
	}
	if err := r.Keep(ctx, name, true); err != nil {
		return err
	}
	if _, err := r.git(ctx, r.Top, "branch", "--quiet", "-D", w.Branch); err != nil {
		return err
	}
	r.git(ctx, r.Top, "symbolic-ref", "--delete", BaseRef(w.Branch))
	if _, err := r.git(ctx, r.Top, "config", "--local", "--get", baseKey(w.Branch)); err == nil { // an earlier version's
		r.git(ctx, r.Top, "config", "--local", "--unset", baseKey(w.Branch))
	}
	return nil
}

// Keep removes worktree name's folder and keeps its branch. Uncommitted
// changes in it refuse unless force.
func (r *Repo) Keep(ctx context.Context, name string, force bool) error {
	w, err := r.Find(ctx, name)
	if err != nil {
		return err
	}
	if w.Missing {
		_, err := r.git(ctx, r.Top, "worktree", "prune")
		return err
	}
	args := []string{"worktree", "remove"}
	if force {
		args = append(args, "--force")
	}
	_, err = r.git(ctx, r.Top, append(args, w.Path)...)
	return err
}
