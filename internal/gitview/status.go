package gitview

import (
	"context"
	"strconv"
	"strings"
)

// Changes is what the Changes view shows: the branch, and the working tree
// against HEAD as git splits it, staged (the index against HEAD) and
// unstaged (the working tree against the index), and untracked files.
type Changes struct {
	// Branch is the current branch ("" when HEAD is detached).
	Branch string `json:"branch"`
	// Head is the abbreviated commit HEAD is at ("" before the first commit).
	Head string `json:"head"`
	// Upstream is the branch's upstream ("" without one); Ahead and Behind
	// count the commits each side has that the other lacks.
	Upstream string `json:"upstream,omitempty"`
	Ahead    int    `json:"ahead"`
	Behind   int    `json:"behind"`
	// Staged and Unstaged are the two diffs, one entry per file.
	Staged   []FileDiff `json:"staged"`
	Unstaged []FileDiff `json:"unstaged"`
	// Untracked lists new files git does not track yet (not ignored).
	Untracked []string `json:"untracked"`
	// Safe says git ran in safe mode: the repository's git settings are
	// not trusted, so its hooks, fsmonitor, filters and textconv did not run.
	Safe bool `json:"safe"`
	// Top is the working tree's top folder.
	Top string `json:"top"`
	// Against is, for a worktree session's branch, the branch against the
	// branch it came from; nil otherwise.
	Against *Against `json:"against,omitempty"`
}

// Changes reads the branch, both diffs and the untracked files.
func (r *Repo) Changes(ctx context.Context) (Changes, error) {
	c := Changes{Safe: r.safe(), Top: r.Dir, Staged: []FileDiff{}, Unstaged: []FileDiff{}, Untracked: []string{}}
	out, err := r.run(ctx, nil, "status", "--porcelain=v2", "-z", "--branch", "--untracked-files=all", "--no-renames")
	if err != nil {
		return c, err
	}
	for _, rec := range strings.Split(string(out), "\x00") {
		switch {
		case strings.HasPrefix(rec, "# branch.oid "):
			if oid := strings.TrimPrefix(rec, "# branch.oid "); oid != "(initial)" && len(oid) >= 7 {
				c.Head = oid[:7]
			}
		case strings.HasPrefix(rec, "# branch.head "):
			if h := strings.TrimPrefix(rec, "# branch.head "); h != "(detached)" {
				c.Branch = h
			}
		case strings.HasPrefix(rec, "# branch.upstream "):
			c.Upstream = strings.TrimPrefix(rec, "# branch.upstream ")
		case strings.HasPrefix(rec, "# branch.ab "):
			f := strings.Fields(strings.TrimPrefix(rec, "# branch.ab "))
			if len(f) == 2 {
				c.Ahead, _ = strconv.Atoi(strings.TrimPrefix(f[0], "+"))
				c.Behind, _ = strconv.Atoi(strings.TrimPrefix(f[1], "-"))
			}
		case strings.HasPrefix(rec, "? "):
			if p, ok := strings.CutPrefix(strings.TrimPrefix(rec, "? "), r.Prefix); ok {
				c.Untracked = append(c.Untracked, p)
			}
		}
	}
	if c.Staged, err = r.diff(ctx, true); err != nil {
		return c, err
	}
	if c.Unstaged, err = r.diff(ctx, false); err != nil {
		return c, err
	}
	c.Against, err = r.against(ctx, c.Branch)
	return c, err
}

// diff is the staged (index against HEAD) or unstaged (working tree against
// the index) diff, parsed.
func (r *Repo) diff(ctx context.Context, staged bool) ([]FileDiff, error) {
	args := append([]string{"diff"}, diffFlags...)
	if staged {
		args = append(args, "--cached")
	}
	out, err := r.run(ctx, nil, r.relative(args)...)
	if err != nil {
		return nil, err
	}
	files := parseDiff(string(out))
	if files == nil {
		files = []FileDiff{}
	}
	return files, nil
}

// StagedDiff is the staged diff as git prints it (for a commit message).
func (r *Repo) StagedDiff(ctx context.Context) (string, error) {
	out, err := r.run(ctx, nil, r.relative(append(append([]string{"diff"}, diffFlags...), "--cached"))...)
	return string(out), err
}

// relative limits a diff to the workspace's folder, its paths relative to it.
func (r *Repo) relative(args []string) []string {
	if r.Prefix == "" {
		return args
	}
	return append(args, "--relative="+r.Prefix)
}

// untracked lists the untracked files of the workspace's folder.
func (r *Repo) untracked(ctx context.Context) ([]string, error) {
	out, err := r.run(ctx, nil, "ls-files", "-z", "--others", "--exclude-standard", "--full-name", "--", r.spec(""))
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range strings.Split(string(out), "\x00") {
		if p, ok := strings.CutPrefix(p, r.Prefix); ok && p != "" {
			paths = append(paths, p)
		}
	}
	return paths, nil
}
