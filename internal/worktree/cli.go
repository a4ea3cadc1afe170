package worktree

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Exit codes of Main: 0 done, 1 refused or failed, 2 bad usage.
const (
	exitError = 1
	exitUsage = 2
)

// Usage is the command's usage line (after `gatehouse worktree`).
const Usage = "new|list|merge|keep|discard|trust [--workspace DIR] [--commit MESSAGE] [--yes] [--hash H] [NAME]"

type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// Main is `gatehouse worktree`: what the window does with worktree
// sessions, from a terminal. new makes one (and prints its folder and
// branch), list lists them, merge merges one into the branch it came from
// (refusing while it has uncommitted changes, unless --commit MESSAGE),
// keep removes its folder and keeps its branch, discard removes both
// (refusing while the branch has unmerged commits or uncommitted changes,
// which it lists, unless --yes), trust shows the repository's git
// settings and trusts them with --hash (until then git runs in safe mode,
// and a merge that would skip hooks or signing is refused).
func Main(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: gatehouse worktree", Usage)
		return exitUsage
	}
	verb := args[0]
	fs := flag.NewFlagSet("gatehouse worktree "+verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	wsDir := fs.String("workspace", ".", "a folder of the repository")
	commit := fs.String("commit", "", "merge: commit the worktree's uncommitted changes first, with this message")
	yes := fs.Bool("yes", false, "discard: also when the branch has unmerged commits or uncommitted changes")
	hash := fs.String("hash", "", "trust: trust the git settings shown with this hash")
	base := fs.String("base", "", "new: the branch to start from (default: the current branch)")
	var copies multi
	fs.Var(&copies, "copy", "new: an untracked file to copy in (such as .env); repeat for more")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitUsage
	}
	name := fs.Arg(0)
	if fs.NArg() > 1 || (verb != "list" && verb != "trust" && name == "") {
		fmt.Fprintln(stderr, "usage: gatehouse worktree", Usage)
		return exitUsage
	}
	ctx := context.Background()
	ts, err := userStore()
	if err != nil {
		return fail(stderr, err)
	}
	r, err := OpenTrusting(ctx, *wsDir, ts)
	if err != nil {
		return fail(stderr, err)
	}
	switch verb {
	case "trust":
		if err := trustVerb(r, ts, *hash, stdout); err != nil {
			return fail(stderr, err)
		}
	case "new":
		w, err := r.Create(ctx, name, *base, copies)
		if err != nil {
			return fail(stderr, err)
		}
		fmt.Fprintf(stdout, "worktree %s\nbranch %s (from %s)\n", w.Path, w.Branch, w.Base)
	case "list":
		ws, err := r.List(ctx)
		if err != nil {
			return fail(stderr, err)
		}
		if len(ws) == 0 {
			fmt.Fprintln(stdout, "no worktree sessions")
		}
		for _, w := range ws {
			state := ""
			if w.Missing {
				state = "  (folder missing)"
			}
			fmt.Fprintf(stdout, "%s\t%s\tfrom %s\t%s%s\n", w.Name, w.Branch, w.Base, w.Path, state)
		}
	case "merge":
		m, err := r.Merge(ctx, name, *commit)
		if errors.Is(err, ErrUncommitted) {
			err = errors.New("the worktree has uncommitted changes: commit them, or pass --commit MESSAGE")
		}
		err = explainTrust(err, r.Top)
		if err != nil {
			return fail(stderr, err)
		}
		fmt.Fprintf(stdout, "merged %d commit(s) into %s\n", len(m.Commits), m.Base)
		for _, c := range m.Commits {
			fmt.Fprintln(stdout, "  "+c)
		}
	case "keep":
		if err := r.Keep(ctx, name, false); err != nil {
			return fail(stderr, err)
		}
		fmt.Fprintf(stdout, "removed the worktree; the branch %s%s stays\n", BranchPrefix, name)
	case "discard":
		err := r.Discard(ctx, name, *yes)
		var un *Unmerged
		if errors.As(err, &un) {
			fmt.Fprintln(stderr, "gatehouse worktree: not discarded:", un.Error())
			fmt.Fprintln(stderr, "pass --yes to discard them too")
			return exitError
		}
		if err != nil {
			return fail(stderr, err)
		}
		fmt.Fprintf(stdout, "discarded the worktree and the branch %s%s\n", BranchPrefix, name)
	default:
		fmt.Fprintln(stderr, "usage: gatehouse worktree", Usage)
		return exitUsage
	}
	return 0
}

func fail(stderr io.Writer, err error) int {
	fmt.Fprintln(stderr, "gatehouse worktree:", err)
	return exitError
}
