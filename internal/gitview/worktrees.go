package gitview

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"gatehouse/internal/settings"
	"gatehouse/internal/worktree"
)

// Worktrees is the worktree sessions of the workspace's repository, and
// which one the window is in.
type Worktrees struct {
	// Main is the main worktree's folder.
	Main string `json:"main"`
	// Current is the worktree session the window is in ("" in the main
	// worktree).
	Current string              `json:"current"`
	List    []worktree.Worktree `json:"list"`
	// Copy is the setting: untracked files copied into a new worktree.
	Copy []string `json:"copy"`
}

// Ending is what ending a worktree session would lose, for the
// confirmation of a discard.
type Ending struct {
	Commits     []string `json:"commits"`
	Uncommitted []string `json:"uncommitted"`
}

// mainRepo is the worktree repository of the workspace, and the name of
// the worktree session the workspace is ("" for the main worktree).
func (s *Service) mainRepo(ctx context.Context) (*worktree.Repo, string, error) {
	ws := s.h.Workspace()
	if ws == "" {
		return nil, "", errors.New("choose a workspace folder first")
	}
	if _, err := os.Stat(ws); err != nil {
		// A worktree deleted behind the window's back: its repository is
		// the one beside it (<repo>.worktrees/<name>).
		if parent := filepath.Dir(ws); strings.HasSuffix(parent, ".worktrees") {
			r, err := worktree.OpenTrusting(ctx, strings.TrimSuffix(parent, ".worktrees"), s.trustStore())
			return r, filepath.Base(ws), err
		}
		return nil, "", fmt.Errorf("the workspace folder %s is gone", ws)
	}
	r, err := worktree.OpenTrusting(ctx, ws, s.trustStore())
	if err != nil {
		return nil, "", err
	}
	ts, err := r.List(ctx)
	if err != nil {
		return nil, "", err
	}
	for _, w := range ts {
		if same(w.Path, ws) {
			return r, w.Name, nil
		}
	}
	return r, "", nil
}

func same(a, b string) bool {
	ra, err1 := filepath.EvalSymlinks(a)
	rb, err2 := filepath.EvalSymlinks(b)
	return a == b || err1 == nil && err2 == nil && ra == rb
}

func (s *Service) withMain(f func(context.Context, *worktree.Repo, string) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
	defer cancel()
	r, name, err := s.mainRepo(ctx)
	if err != nil {
		return err
	}
	return f(ctx, r, name)
}

// WorktreeSessions lists the repository's worktree sessions.
func (s *Service) WorktreeSessions() (Worktrees, error) {
	var out Worktrees
	err := s.withMain(func(ctx context.Context, r *worktree.Repo, name string) error {
		list, err := r.List(ctx)
		if list == nil {
			list = []worktree.Worktree{}
		}
		saved, _ := s.h.Settings.Load()
		out = Worktrees{Main: r.Top, Current: name, List: list, Copy: saved.WorktreeCopy}
		if out.Copy == nil {
			out.Copy = []string{}
		}
		return err
	})
	return out, err
}

// NewWorktreeSession makes worktree session name from the main worktree's
// branch (its folder beside the repository, its branch gatehouse/<name>,
// the untracked files of the copy setting copied in) and opens it as the
// window's workspace.
func (s *Service) NewWorktreeSession(name string) (worktree.Worktree, error) {
	var w worktree.Worktree
	err := s.withMain(func(ctx context.Context, r *worktree.Repo, _ string) error {
		saved, _ := s.h.Settings.Load()
		var err error
		if w, err = r.Create(ctx, name, "", saved.WorktreeCopy); err != nil {
			return err
		}
		return s.h.SwitchWorkspace(w.Path)
	})
	return w, err
}

// MergeWorktreeSession merges the worktree session the window is in into
// the branch it came from (see worktree.Repo.Merge); the session stays
// open.
func (s *Service) MergeWorktreeSession() (worktree.Merged, error) {
	var m worktree.Merged
	err := s.withMain(func(ctx context.Context, r *worktree.Repo, name string) error {
		if name == "" {
			return errors.New("the window is not in a worktree session")
		}
		var err error
		m, err = r.Merge(ctx, name, "")
		if errors.Is(err, worktree.ErrUncommitted) {
			return errors.New("the worktree has uncommitted changes: commit them here first (merge commits nothing for you)")
		}
		return err
	})
	return m, err
}

// EndWorktreeSession ends the worktree session the window is in: the
// window goes back to the main worktree, then the worktree folder is
// removed, and with discard its branch too. A discard not confirmed
// returns what it would lose instead (nothing is changed).
func (s *Service) EndWorktreeSession(discard, confirmed bool) (*Ending, error) {
	var lose *Ending
	err := s.withMain(func(ctx context.Context, r *worktree.Repo, name string) error {
		if name == "" {
			return errors.New("the window is not in a worktree session")
		}
		un, err := r.Losses(ctx, name)
		if err != nil {
			return err
		}
		switch {
		case discard && !confirmed && un != nil:
			lose = &Ending{Commits: append([]string{}, un.Commits...), Uncommitted: append([]string{}, un.Uncommitted...)}
			return nil
		case !discard && un != nil && len(un.Uncommitted) > 0:
			return fmt.Errorf("the worktree has uncommitted changes to %s: commit them or discard the worktree", strings.Join(un.Uncommitted, ", "))
		}
		if err := s.h.SwitchWorkspace(r.Top); err != nil {
			return err
		}
		if w, err := r.Find(ctx, name); err == nil && s.h.CloseFolder != nil {
			s.h.CloseFolder(w.Path)
		}
		if discard {
			return r.Discard(ctx, name, true)
		}
		return r.Keep(ctx, name, false)
	})
	return lose, err
}

// SetWorktreeCopy saves the untracked files copied into new worktrees.
func (s *Service) SetWorktreeCopy(files []string) error {
	var clean []string
	for _, f := range files {
		if f = strings.TrimSpace(f); f != "" {
			clean = append(clean, f)
		}
	}
	return s.h.Settings.Update(func(v *settings.Settings) { v.WorktreeCopy = clean })
}

// OpenWorktreeSession opens worktree session name as the window's
// workspace ("": the main worktree), leaving the one it was in as it is.
func (s *Service) OpenWorktreeSession(name string) error {
	return s.withMain(func(ctx context.Context, r *worktree.Repo, _ string) error {
		if name == "" {
			return s.h.SwitchWorkspace(r.Top)
		}
		w, err := r.Find(ctx, name)
		if err != nil {
			return err
		}
		if w.Missing {
			return fmt.Errorf("the worktree %s is gone", w.Path)
		}
		return s.h.SwitchWorkspace(w.Path)
	})
}
