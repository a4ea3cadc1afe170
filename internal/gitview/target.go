package gitview

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Target names a set of changes to read as one diff (what a review reads).
type Target struct {
	// Kind is TargetUncommitted (the working tree against HEAD, staged and
	// unstaged, untracked files that are not ignored as added ones), TargetStaged (the index against HEAD), TargetBase (HEAD
	// against its merge base with Ref), TargetCommit (commit Ref against
	// its first parent) or TargetTurn (what one turn of the session wrote,
	// Ref its id: read from the session's undo store, never from git).
	Kind string `json:"kind"`
	// Ref is the base branch or the commit (TargetBase, TargetCommit).
	Ref string `json:"ref,omitempty"`
}

// The kinds of Target.
const (
	TargetUncommitted = "uncommitted"
	TargetStaged      = "staged"
	TargetBase        = "base"
	TargetCommit      = "commit"
	TargetTurn        = "turn"
)

// emptyTree is git's empty tree: the "parent" of a root commit, and HEAD
// before the first commit.
const emptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// Validate says what is wrong with t before git runs.
func (t Target) Validate() error {
	switch t.Kind {
	case TargetUncommitted, TargetStaged:
		if t.Ref != "" {
			return fmt.Errorf("the %s changes take no ref", t.Kind)
		}
	case TargetTurn:
		if strings.TrimSpace(t.Ref) == "" {
			return errors.New("a turn target needs the turn's id")
		}
	case TargetBase, TargetCommit:
		switch {
		case strings.TrimSpace(t.Ref) == "":
			return fmt.Errorf("a %s target needs a ref", t.Kind)
		case strings.HasPrefix(t.Ref, "-"), strings.ContainsAny(t.Ref, " \t\n\x00"):
			return fmt.Errorf("%q is not a git ref", t.Ref)
		}
	default:
		return fmt.Errorf("unknown target %q: uncommitted, staged, base, commit or turn", t.Kind)
	}
	return nil
}

// String says what t reads, in words.
func (t Target) String() string {
	switch t.Kind {
	case TargetStaged:
		return "the staged changes"
	case TargetBase:
		return "this branch against " + t.Ref
	case TargetCommit:
		return "commit " + t.Ref
	case TargetTurn:
		return "one turn of this session (what it wrote)"
	}
	return "the uncommitted changes"
}

// TargetDiff is the diff t names, parsed and as git printed it, run as
// every diff of the view is (safe mode while untrusted, no textconv, no
// external diff; limited to the workspace's folder).
func (r *Repo) TargetDiff(ctx context.Context, t Target) ([]FileDiff, string, error) {
	if err := t.Validate(); err != nil {
		return nil, "", err
	}
	if t.Kind == TargetTurn {
		return nil, "", errors.New("a turn's changes come from the session's undo store, not from git")
	}
	args := append([]string{"diff"}, diffFlags...)
	switch t.Kind {
	case TargetUncommitted:
		head := "HEAD"
		if !r.hasHead(ctx) {
			head = emptyTree
		}
		args = append(args, head)
	case TargetStaged:
		args = append(args, "--cached")
	case TargetBase:
		base, err := r.commitOf(ctx, t.Ref)
		if err != nil {
			return nil, "", err
		}
		args = append(args, base+"...HEAD")
	case TargetCommit:
		c, err := r.commitOf(ctx, t.Ref)
		if err != nil {
			return nil, "", err
		}
		parent := emptyTree
		if p, err := r.commitOf(ctx, c+"^"); err == nil {
			parent = p
		}
		args = append(args, parent, c)
	}
	out, err := r.run(ctx, nil, r.relative(args)...)
	if err != nil {
		return nil, "", err
	}
	if t.Kind == TargetUncommitted {
		added, err := r.untrackedDiff(ctx)
		if err != nil {
			return nil, "", err
		}
		out = append(out, added...)
	}
	files := parseDiff(string(out))
	if files == nil {
		files = []FileDiff{}
	}
	return files, string(out), nil
}

// commitOf resolves ref to a commit's full hash, or says it is none.
func (r *Repo) commitOf(ctx context.Context, ref string) (string, error) {
	out, err := r.run(ctx, nil, "rev-parse", "--verify", "-q", "--end-of-options", ref+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("%q is not a commit or branch of this repository", ref)
	}
	return strings.TrimSpace(string(out)), nil
}

// Lines are the hunk's lines after its header, each with its prefix
// (' ', '+', '-' or '\'), without line ends.
func (h Hunk) Lines() []string {
	if len(h.lines) < 2 {
		return nil
	}
	out := make([]string, 0, len(h.lines)-1)
	for _, l := range h.lines[1:] {
		out = append(out, strings.TrimSuffix(l, "\n"))
	}
	return out
}

// Range reads the header's "-a,b +c,d": the old side's first line and
// count, the new side's. A count left out is 1.
func (h Hunk) Range() (oldStart, oldCount, newStart, newCount int, err error) {
	f := strings.Fields(h.Header)
	if len(f) < 3 || f[0] != "@@" || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return 0, 0, 0, 0, errors.New("not a hunk header: " + h.Header)
	}
	num := func(s string) (int, int, error) {
		a, b, ok := strings.Cut(s, ",")
		start, err := strconv.Atoi(a)
		if err != nil {
			return 0, 0, err
		}
		if !ok {
			return start, 1, nil
		}
		n, err := strconv.Atoi(b)
		return start, n, err
	}
	if oldStart, oldCount, err = num(f[1][1:]); err != nil {
		return
	}
	newStart, newCount, err = num(f[2][1:])
	return
}
