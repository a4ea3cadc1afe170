package worktree

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"
)

// ExecArgs handles `gatehouse exec --worktree [NAME]`: it takes the flag
// out of args, makes the worktree session NAME (a new one named after the
// time when NAME is left out; the existing one when it is there) of the
// repository of --workspace, and points --workspace at it. It prints the
// worktree and the branch to w. Args without --worktree come back as they
// are.
func ExecArgs(ctx context.Context, args []string, w io.Writer) ([]string, error) {
	var rest []string
	found, name, ws := false, "", "."
	for i := 0; i < len(args); i++ {
		a := args[i]
		flagName, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch {
		case !strings.HasPrefix(a, "-"):
			rest = append(rest, a)
		case flagName == "worktree":
			found = true
			if hasValue {
				name = value
			} else if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
				name = args[i+1]
				i++
			}
		case flagName == "workspace":
			if hasValue {
				ws = value
			} else if i+1 < len(args) {
				ws = args[i+1]
				i++
			}
		default:
			rest = append(rest, a)
		}
	}
	if !found {
		return args, nil
	}
	ts, err := userStore()
	if err != nil {
		return nil, err
	}
	r, err := OpenTrusting(ctx, ws, ts)
	if err != nil {
		return nil, err
	}
	if name == "" {
		name = "exec-" + time.Now().Format("20060102-150405")
	}
	wt, err := r.Find(ctx, name)
	if err != nil {
		if wt, err = r.Create(ctx, name, "", nil); err != nil {
			return nil, err
		}
	} else if wt.Missing {
		return nil, fmt.Errorf("the worktree %s is gone: discard it (gatehouse worktree discard %s)", wt.Path, name)
	}
	fmt.Fprintf(w, "worktree %s\nbranch %s (from %s)\n", wt.Path, wt.Branch, wt.Base)
	return append([]string{"--workspace", wt.Path}, rest...), nil
}
