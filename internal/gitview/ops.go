package gitview

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
)

// ErrStale refuses a hunk operation whose hunk is no longer in the diff:
// the file changed since the view was drawn. The view reads the changes
// again and the user picks again.
var ErrStale = errors.New("this hunk changed since it was shown: look again")

// Keep runs change, a discard of work in paths, with each file's content
// kept before it so the discard can be undone; it returns the unit that
// undoes it (the undo store's).
type Keep func(paths []string, change func() error) (string, error)

// StageFile stages the whole of path: its changes, its deletion, or the
// untracked file.
func (r *Repo) StageFile(ctx context.Context, path string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, err := r.run(ctx, nil, "add", "-A", "--", r.spec(path))
	return err
}

// UnstageFile takes path out of the index's changes: back to HEAD's
// version (out of the index before the first commit).
func (r *Repo) UnstageFile(ctx context.Context, path string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.hasHead(ctx) {
		_, err := r.run(ctx, nil, "rm", "--cached", "-q", "--", r.spec(path))
		return err
	}
	_, err := r.run(ctx, nil, "reset", "-q", "HEAD", "--", r.spec(path))
	return err
}

// StageHunk stages one hunk of path's unstaged diff (id from Changes).
func (r *Repo) StageHunk(ctx context.Context, path, id string) error {
	return r.applyHunk(ctx, false, path, id, "--cached")
}

// UnstageHunk takes one hunk of path's staged diff out of the index.
func (r *Repo) UnstageHunk(ctx context.Context, path, id string) error {
	return r.applyHunk(ctx, true, path, id, "--cached", "-R")
}

func (r *Repo) applyHunk(ctx context.Context, staged bool, path, id string, flags ...string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	files, err := r.diff(ctx, staged)
	if err != nil {
		return err
	}
	f, h, ok := findHunk(files, path, id)
	if !ok {
		return ErrStale
	}
	return r.apply(ctx, f.patchOf(h), flags...)
}

// apply runs `git apply` on patch (its paths workspace-relative).
func (r *Repo) apply(ctx context.Context, patch []byte, flags ...string) error {
	args := append([]string{"apply", "--whitespace=nowarn"}, flags...)
	if r.Prefix != "" {
		args = append(args, "--directory="+r.Prefix)
	}
	_, err := r.run(ctx, patch, append(args, "-")...)
	return err
}

// DiscardHunk brings one hunk of path's unstaged diff back to the index's
// content in the working tree, with the file kept by keep first. It
// returns the undo unit.
func (r *Repo) DiscardHunk(ctx context.Context, keep Keep, path, id string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	files, err := r.diff(ctx, false)
	if err != nil {
		return "", err
	}
	f, h, ok := findHunk(files, path, id)
	if !ok {
		return "", ErrStale
	}
	return keep([]string{path}, func() error { return r.apply(ctx, f.patchOf(h), "-R") })
}

// DiscardFile discards path's unstaged changes: a tracked file goes back
// to the index's content, an untracked file is removed. The file is kept
// by keep first; it returns the undo unit.
func (r *Repo) DiscardFile(ctx context.Context, keep Keep, path string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, err := r.untracked(ctx)
	if err != nil {
		return "", err
	}
	if slices.Contains(c, path) {
		abs := filepath.Join(r.Dir, filepath.FromSlash(r.Prefix+path))
		return keep([]string{path}, func() error { return os.Remove(abs) })
	}
	files, err := r.diff(ctx, false)
	if err != nil {
		return "", err
	}
	if !slices.ContainsFunc(files, func(f FileDiff) bool { return f.Path == path }) {
		return "", fmt.Errorf("%s has no unstaged changes to discard", path)
	}
	return keep([]string{path}, func() error {
		_, err := r.run(ctx, nil, "checkout", "-q", "--", r.spec(path))
		return err
	})
}

// hasHead says whether the branch has a commit yet.
func (r *Repo) hasHead(ctx context.Context) bool {
	_, err := r.run(ctx, nil, "rev-parse", "--verify", "-q", "HEAD")
	return err == nil
}

// spec is path (workspace-relative) as a pathspec from the top.
func (r *Repo) spec(path string) string { return ":(top,literal)" + r.Prefix + path }
