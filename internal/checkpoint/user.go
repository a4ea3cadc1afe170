package checkpoint

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"gatehouse/internal/workspace"
)

// ByDiscard marks a change the user made by discarding work in the Changes
// view (a hunk or a file brought back to the index's content).
const ByDiscard By = "discard"

// Record keeps the content of paths (workspace-relative), runs change, the
// user's own action on them, and records what it did as a unit of its own,
// "<prefix>-<n>", so it can be undone like a turn. A path the boundary
// refuses for writing is refused before change runs. It returns the unit,
// "" when change left every file as it was; change's error is returned
// with whatever it changed recorded.
func (r *Recorder) Record(prefix string, by By, paths []string, change func() error) (Unit, error) {
	if prefix == "" || strings.ContainsAny(prefix, `/\`) {
		return "", fmt.Errorf("checkpoint: bad unit prefix %q", prefix)
	}
	var files []kept
	var pins []string
	defer func() { r.store.Release(pins...) }()
	for _, path := range paths {
		abs, err := r.ws.Resolve(path, workspace.Write)
		if err != nil {
			return "", err
		}
		rel, ok := r.rel(abs)
		if !ok {
			return "", fmt.Errorf("%s is not a file in the workspace", path)
		}
		before, note, err := r.store.keep(abs)
		if err != nil {
			return "", fmt.Errorf("checkpoint: %s cannot be kept, so it is left as it is: %w", path, err)
		}
		pins = append(pins, before.Hash)
		files = append(files, kept{rel, abs, before, note})
	}
	cerr := change()
	unit := r.nextUnit(prefix)
	var out []Change
	out, pins = r.settle(files, pins, func(f kept, after Version) Change {
		return Change{Unit: unit, Path: f.rel, By: by, Before: f.before, After: after, At: nowFunc(), Note: f.note}
	})
	if err := r.Append(out...); err != nil {
		return "", errors.Join(cerr, fmt.Errorf("checkpoint: the change is made but not recorded: %w", err))
	}
	if len(out) == 0 {
		unit = ""
	}
	return unit, cerr
}

// nextUnit names the next unit "<prefix>-<n>" of the log.
func (r *Recorder) nextUnit(prefix string) Unit {
	n := 0
	for _, u := range Units(r.Changes()) {
		if rest, ok := strings.CutPrefix(string(u), prefix+"-"); ok {
			if i, err := strconv.Atoi(rest); err == nil && i > n {
				n = i
			}
		}
	}
	return Unit(prefix + "-" + strconv.Itoa(n+1))
}
