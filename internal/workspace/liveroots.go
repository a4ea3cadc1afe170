package workspace

import (
	"errors"
	"fmt"
	"slices"
	"sync/atomic"
)

// liveRoots are read-only roots that may change while a session runs (its
// skill folders: one the user creates mid-session joins, one turned off
// leaves). They sit behind an atomic pointer, shared by the copies
// WithReadOnly makes of the workspace that holds them, so every resolve
// sees the set in force now.
type liveRoots struct{ roots atomic.Pointer[[]string] }

func (l *liveRoots) get() []string {
	if l == nil {
		return nil
	}
	if p := l.roots.Load(); p != nil {
		return *p
	}
	return nil
}

// WithLiveReadOnly returns a workspace like w whose extra read-only roots
// can be replaced later (SetLiveReadOnly), the fixed ones kept; w is
// unchanged. A session that opens it sees a replacement from its next
// resolve on.
func (w *Workspace) WithLiveReadOnly() *Workspace {
	c := *w
	c.live = &liveRoots{}
	return &c
}

// SetLiveReadOnly replaces the replaceable read-only roots of a workspace
// made by WithLiveReadOnly with roots (absolute, links resolved here). A
// root that is not a folder now is left out and named in the error; the
// others take effect. It fails, changing nothing, on a workspace without
// live roots.
func (w *Workspace) SetLiveReadOnly(roots ...string) error {
	if w.live == nil {
		return errors.New("this workspace's read-only roots are fixed")
	}
	var out []string
	var errs []error
	for _, r := range roots {
		d, err := realDir(r)
		if err != nil {
			errs = append(errs, fmt.Errorf("read-only root: %w", err))
			continue
		}
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	w.live.roots.Store(&out)
	return errors.Join(errs...)
}

// allReadOnly is the fixed read-only roots and the live ones in force now.
func (w *Workspace) allReadOnly() []string {
	live := w.live.get()
	if len(live) == 0 {
		return w.readOnly
	}
	return append(slices.Clone(w.readOnly), live...)
}
