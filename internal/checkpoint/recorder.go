package checkpoint

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"gatehouse/internal/tools"
	"gatehouse/internal/watch"
	"gatehouse/internal/workspace"
)

// Resolver is the workspace boundary; *workspace.Workspace implements it.
type Resolver interface {
	Resolve(path string, access workspace.Access) (string, error)
	Root() string
}

// Baselines is what the watcher knows of files changed in the session;
// *watch.Tracker implements it.
type Baselines interface {
	Baseline(rel string) (c watch.ChangedFile, base []byte, known, ok bool)
}

// Recorder records the changes of one session: a middleware keeps each
// file's version before and after every file tool call, and Observe
// attributes the watcher's batches that a command of the agent made.
type Recorder struct {
	store   *Store
	session string
	ws      Resolver
	base    Baselines // nil: commands' changes are not seen

	mu       sync.Mutex
	changes  []Change        // the session's log, as read at start and appended since
	cmdUnit  Unit            // the turn of the command running or last run
	stale    map[string]bool // changed from outside since the log's last version
	reverted []string        // files the user reverted, not yet told to the model
}

// NewRecorder records session's changes in store. base (may be nil) is the
// session's tracker.
func NewRecorder(store *Store, session string, ws Resolver, base Baselines) (*Recorder, error) {
	changes, err := store.Changes(session)
	if err == nil {
		err = store.SetRoot(session, ws.Root())
	}
	if err != nil {
		return nil, err
	}
	return &Recorder{store: store, session: session, ws: ws, base: base, changes: changes, stale: map[string]bool{}}, nil
}

// Store is the recorder's store.
func (r *Recorder) Store() *Store { return r.store }

// Changes returns the session's changes so far.
func (r *Recorder) Changes() []Change {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Change(nil), r.changes...)
}

// Append records changes in the session's log and has the store pruned in
// the background (Store.PruneSoon): the turn does not wait for it.
func (r *Recorder) Append(cs ...Change) error {
	if len(cs) == 0 {
		return nil
	}
	r.mu.Lock()
	r.changes = append(r.changes, cs...)
	r.mu.Unlock()
	err := r.store.Append(r.session, cs...)
	if err == nil {
		err = r.store.PruneSoon(r.session)
	}
	return err
}

// Mark notes on each file of a prepared call whose prior content the store
// could not keep that its change cannot be restored, before it is approved
// (the gate calls it on every prepared call).
func (r *Recorder) Mark(p *tools.Prepared) {
	for i := range p.Files {
		f := &p.Files[i]
		src := f.Path
		if f.MovedFrom != "" {
			src = f.MovedFrom
		}
		abs, err := r.ws.Resolve(src, workspace.Read)
		if err != nil {
			continue
		}
		if fi, err := os.Lstat(abs); err == nil && !r.store.Fits(fi.Size()) {
			f.Unrestorable = NoteTooLarge
		}
	}
}

// Middleware records every file tool call (a planned call that declares
// the paths it changes) and marks when the agent's commands run. It sits
// inside the approval gate, so it sees the calls that run, and reads their
// plan (tools.Call.Plan, made once by tools.Plan), so what is recorded is
// what runs.
func (r *Recorder) Middleware(t tools.Tool, next tools.Handler) tools.Handler {
	return func(ctx context.Context, call tools.Call) (tools.Result, error) {
		p := call.Plan
		unit := Unit(tools.TurnFrom(ctx))
		if unit == "" {
			unit = Unit("call-" + call.ID)
		}
		switch {
		case p != nil && p.Command == nil && len(p.Paths) > 0:
			return r.fileCall(ctx, unit, t.Spec().Name, call, p, next)
		case p != nil && p.Runs():
			r.setCommandUnit(unit)
		}
		return next(ctx, call)
	}
}

// CommandRuns marks that the turn of ctx runs something whose writes the
// tracker puts down to the agent's commands (a hook around one of its
// calls): what changes from now is that turn's, undone with it.
func (r *Recorder) CommandRuns(ctx context.Context) {
	if unit := Unit(tools.TurnFrom(ctx)); unit != "" {
		r.setCommandUnit(unit)
	}
}

func (r *Recorder) setCommandUnit(u Unit) {
	r.mu.Lock()
	r.cmdUnit = u
	r.mu.Unlock()
}

func (r *Recorder) fileCall(ctx context.Context, unit Unit, tool string, call tools.Call, p *tools.Prepared, next tools.Handler) (tools.Result, error) {
	var files []kept
	var pins []string
	defer func() { r.store.Release(pins...) }()
	for _, path := range p.Paths {
		abs, err := r.ws.Resolve(path, workspace.Write)
		if err != nil {
			continue // the tool refuses it too
		}
		rel, ok := r.rel(abs)
		if !ok {
			continue
		}
		before, note, err := r.store.keep(abs)
		if err != nil {
			before, note = Version{Exists: true, Lost: true}, "cannot be restored: "+err.Error()
		}
		pins = append(pins, before.Hash)
		files = append(files, kept{rel, abs, before, note})
	}
	res, err := next(ctx, call)
	var out []Change
	out, pins = r.settle(files, pins, func(f kept, after Version) Change {
		return Change{Unit: unit, Path: f.rel, By: ByTool, Tool: tool, CallID: call.ID,
			Before: f.before, After: after, At: nowFunc(), Note: f.note}
	})
	if aerr := r.Append(out...); aerr != nil && err == nil {
		err = fmt.Errorf("checkpoint: %w", aerr)
	}
	return res, err
}

func (r *Recorder) rel(abs string) (string, bool) {
	rel, err := filepath.Rel(r.ws.Root(), abs)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// Observe records the changes of a watcher batch that the tracker puts down
// to the agent's commands, as the last command's turn's. The prior content
// is the one the log last recorded for the file, or the watcher's baseline
// when the command was the first to change it; otherwise the change is
// recorded as one that cannot be restored. Give it the batches after the
// tracker observed them.
func (r *Recorder) Observe(batch []watch.Change) {
	if r.base == nil {
		return
	}
	var out []Change
	var pins []string
	defer func() { r.store.Release(pins...) }()
	for _, c := range batch {
		if c.IsDir {
			continue
		}
		cf, base, known, ok := r.base.Baseline(c.Path)
		if !ok || (cf.Origin != watch.OriginShell && cf.Origin != watch.OriginOutside) {
			continue
		}
		r.mu.Lock()
		unit := r.cmdUnit
		last, seen := LastAfter(r.changes, c.Path)
		for _, o := range out {
			if o.Path == c.Path {
				last, seen = o.After, true
			}
		}
		r.mu.Unlock()
		if cf.Origin == watch.OriginOutside {
			r.outside(c.Path, last, seen)
			continue
		}
		if unit == "" {
			continue
		}
		abs, err := r.ws.Resolve(c.Path, workspace.Read)
		if err != nil {
			continue
		}
		after, _, err := r.store.keep(abs)
		if err != nil {
			continue
		}
		pins = append(pins, after.Hash)
		ch := Change{Unit: unit, Path: c.Path, By: ByCommand, After: after, At: nowFunc()}
		r.mu.Lock()
		stale := r.stale[c.Path]
		delete(r.stale, c.Path)
		r.mu.Unlock()
		switch {
		case seen && stale:
			// Changed from outside since the log's last version: the
			// content just before the command is not known.
			ch.Before, ch.Note = Version{Exists: true, Lost: true}, NoteCommand
		case seen:
			ch.Before = last
		case len(cf.Origins) == 1 && cf.Status == "added":
			ch.Before = Version{}
		case len(cf.Origins) == 1 && known:
			h, err := r.store.Put(base)
			if err != nil {
				ch.Before, ch.Note = Version{Exists: true, Hash: Hash(base), Lost: true}, NoteCommand
				break
			}
			pins = append(pins, h)
			mode := after.Mode
			if mode == 0 {
				mode = 0o644
			}
			ch.Before = Version{Exists: true, Hash: h, Mode: mode, Size: int64(len(base))}
		default:
			ch.Before, ch.Note = Version{Exists: true, Lost: true}, NoteCommand
		}
		if ch.Before.Same(ch.After) {
			continue
		}
		out = append(out, ch)
	}
	_ = r.Append(out...)
}

// outside notes a change of path by someone else (the user, their editor):
// unless the file still holds the log's last version of it (an undo's own
// write), that version no longer tells what a later command changed.
func (r *Recorder) outside(path string, last Version, seen bool) {
	if !seen {
		return
	}
	abs, err := r.ws.Resolve(path, workspace.Read)
	if err != nil {
		return
	}
	cur, _, err := current(abs)
	r.mu.Lock()
	defer r.mu.Unlock()
	if err == nil && cur.Same(last) {
		delete(r.stale, path)
	} else {
		r.stale[path] = true
	}
}

// Reverted records that the user reverted paths, for the model's next
// request.
func (r *Recorder) Reverted(paths ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.reverted = append(r.reverted, paths...)
}

// Notes returns, once, a note for the model naming the files the user
// reverted since the last request; nil when there is none.
func (r *Recorder) Notes() []string {
	r.mu.Lock()
	names := r.reverted
	r.reverted = nil
	r.mu.Unlock()
	if len(names) == 0 {
		return nil
	}
	seen := map[string]bool{}
	var uniq []string
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			uniq = append(uniq, n)
		}
	}
	return []string{fmt.Sprintf("Note from Gatehouse: the user reverted these files to an earlier content (undo): %s. Read them again before you edit them.",
		strings.Join(uniq, ", "))}
}

// kept is a file a change may touch, with its content kept from before.
type kept struct {
	rel, abs string
	before   Version
	note     string
}

// settle keeps each file's content after a change and returns, made by mk,
// a Change for each that now differs from before (content lost to a failed
// keep counts as changed); their stale marks clear. The kept contents'
// hashes are added to pins.
func (r *Recorder) settle(files []kept, pins []string, mk func(f kept, after Version) Change) ([]Change, []string) {
	var out []Change
	for _, f := range files {
		after, _, err := r.store.keep(f.abs)
		if err != nil {
			after = Version{Exists: true, Lost: true}
		}
		pins = append(pins, after.Hash)
		if after.Same(f.before) {
			continue
		}
		out = append(out, mk(f, after))
	}
	r.mu.Lock()
	for _, c := range out {
		delete(r.stale, c.Path)
	}
	r.mu.Unlock()
	return out, pins
}
