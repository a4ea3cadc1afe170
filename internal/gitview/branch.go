package gitview

import (
	"context"
	"strings"

	"gatehouse/internal/gitcmd"
	"gatehouse/internal/worktree"
)

// Against is a worktree session's branch against the branch it came from:
// the commits it has and their changes (committed ones only; the working
// tree's are in Staged and Unstaged).
type Against struct {
	Base    string     `json:"base"`
	Commits []string   `json:"commits"` // "hash subject", oldest first
	Files   []FileDiff `json:"files"`
}

// against reads the branch against its base, nil for a branch that is not
// a worktree session's (or whose base is gone).
func (r *Repo) against(ctx context.Context, branch string) (*Against, error) {
	if !strings.HasPrefix(branch, worktree.BranchPrefix) {
		return nil, nil
	}
	base := worktree.ReadBase(ctx, gitcmd.Git{Program: r.Git, Trusted: r.Trusted}, r.Dir, branch)
	if base == "" {
		return nil, nil
	}
	if _, err := r.run(ctx, nil, "rev-parse", "--verify", "-q", "refs/heads/"+base); err != nil {
		return nil, nil
	}
	a := &Against{Base: base, Commits: []string{}, Files: []FileDiff{}}
	log, err := r.run(ctx, nil, "log", "--reverse", "--no-show-signature", "--format=%h %s", base+"..HEAD")
	if err != nil {
		return nil, err
	}
	for _, l := range strings.Split(string(log), "\n") {
		if l != "" {
			a.Commits = append(a.Commits, l)
		}
	}
	diff, err := r.run(ctx, nil, r.relative(append(append([]string{"diff"}, diffFlags...), base+"...HEAD"))...)
	if err != nil {
		return nil, err
	}
	if files := parseDiff(string(diff)); files != nil {
		a.Files = files
	}
	return a, nil
}
