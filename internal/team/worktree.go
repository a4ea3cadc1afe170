package team

import (
	"context"
	"fmt"

	"gatehouse/internal/worktree"
)

// WorktreePrefix starts the worktree session name of a teammate started
// in its own worktree: team-<name>, on branch gatehouse/team-<name>,
// in the folder <repo>.worktrees/team-<name> beside the repository.
const WorktreePrefix = "team-"

// TrustGit makes the git settings of the lead's repository trusted as
// trusted says (trust.Store.GitTrust: asked before each git run) when a
// teammate's worktree is made. Until it is called, and while the settings
// are not trusted, git runs in safe mode: none of the programs the
// repository's settings name (hooks, fsmonitor, filters) runs.
func (t *Team) TrustGit(trusted func(top string) func() bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.gitTrust = trusted
}

// CopyIntoWorktrees has a teammate's new worktree get the repository's
// untracked files files names, as a worktree session made in the window
// does (the settings' worktreeCopy, read when the worktree is made: a
// local .env, say, that the teammate's build needs). A worktree taken as
// an earlier teammate left it gets nothing.
func (t *Team) CopyIntoWorktrees(files func() []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.worktreeCopy = files
}

// worktreeFor makes m's worktree from the lead's repository's current
// branch (an existing worktree session of that name, as a resumed or
// earlier team left it, is taken as it is) and binds m to it. It fails,
// saying why, for a workspace that is not in a git repository.
func (t *Team) worktreeFor(ctx context.Context, m *member) error {
	root := t.lead.Workspace().Root()
	r, err := worktree.Open(ctx, root)
	if err != nil {
		return fmt.Errorf("worktree: the workspace %s is not in a git repository (%v); spawn the teammate without worktree", root, err)
	}
	var untracked []string
	t.mu.Lock()
	if t.gitTrust != nil {
		r.Trusted = t.gitTrust(r.Top)
	}
	if t.worktreeCopy != nil {
		untracked = t.worktreeCopy()
	}
	t.mu.Unlock()
	name := WorktreePrefix + m.info.Name
	w, err := r.Find(ctx, name)
	switch {
	case err != nil:
		if w, err = r.Create(ctx, name, "", untracked); err != nil {
			return fmt.Errorf("worktree: %w", err)
		}
	case w.Missing:
		return fmt.Errorf("worktree: %s is gone but still listed: discard the worktree session %s first", w.Path, name)
	}
	ws, err := t.lead.Workspace().WithRoot(w.Path)
	if err != nil {
		return fmt.Errorf("worktree: %w", err)
	}
	t.mu.Lock()
	m.ws = ws
	m.info.Worktree, m.info.WorktreeBranch = ws.Root(), w.Branch
	t.mu.Unlock()
	return nil
}
