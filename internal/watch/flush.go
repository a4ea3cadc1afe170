package watch

import (
	"path/filepath"
	"sort"
	"strings"
	"time"

	"gatehouse/internal/protocol"
)

// mark adds rel to the pending batch and makes sure a delivery is due.
func (w *Watcher) mark(rel string, renamed bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	now := w.opts.Clock.Now()
	p := w.pending[rel]
	if p == nil {
		p = &pend{at: now}
		w.pending[rel] = p
		w.order = append(w.order, rel)
	}
	p.renamed = p.renamed || renamed
	p.last = now
	w.lastAt = now
	if w.firstAt.IsZero() {
		w.firstAt = now
	}
	if w.flushStop == nil {
		w.armLocked(w.opts.Quiet)
	}
}

func (w *Watcher) armLocked(d time.Duration) {
	w.wg.Add(1)
	w.flushStop = w.opts.Clock.AfterFunc(d, w.fire)
}

// fire delivers the pending batch once it has been quiet for Quiet or has
// waited MaxWait; otherwise it re-arms for the earlier of the two.
func (w *Watcher) fire() {
	defer w.wg.Done()
	w.deliverMu.Lock()
	defer w.deliverMu.Unlock()
	w.mu.Lock()
	w.flushStop = nil
	if w.stopped || len(w.order) == 0 {
		w.mu.Unlock()
		return
	}
	now := w.opts.Clock.Now()
	due := w.lastAt.Add(w.opts.Quiet)
	if last := w.firstAt.Add(w.opts.MaxWait); last.Before(due) {
		due = last
	}
	if now.Before(due) {
		w.armLocked(due.Sub(now))
		w.mu.Unlock()
		return
	}
	pending, order := w.pending, w.order
	w.pending, w.order, w.firstAt = map[string]*pend{}, nil, time.Time{}
	subs := make([]func([]Change), 0, len(w.subs))
	ids := make([]int, 0, len(w.subs))
	for id := range w.subs {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		subs = append(subs, w.subs[id])
	}
	w.mu.Unlock()

	changes := w.settle(pending, order)
	if len(changes) == 0 {
		return
	}
	w.batches.Add(1)
	for _, fn := range subs {
		fn(changes)
	}
}

// settle turns pending paths into changes by comparing the disk with the
// index (caller holds deliverMu): a path created and removed within one
// batch is no change at all, and a removed folder lists what it held.
func (w *Watcher) settle(pending map[string]*pend, order []string) []Change {
	var out []Change
	removedDirs := map[string]Change{}
	for _, rel := range order {
		p := pending[rel]
		old, had := w.index[rel]
		fi, err := lstat(w.abs(rel))
		switch {
		case err != nil:
			if !had {
				continue
			}
			delete(w.index, rel)
			kind := protocol.FsRemove
			if p.renamed {
				kind = protocol.FsRename
			}
			c := Change{Path: rel, Kind: kind, IsDir: old.dir, At: p.at, Last: p.last}
			out = append(out, c)
			if old.dir {
				removedDirs[rel] = c
			}
		case !had:
			w.index[rel] = entryOf(fi)
			out = append(out, Change{Path: rel, Kind: protocol.FsCreate, IsDir: fi.IsDir(), At: p.at, Last: p.last})
		default:
			w.index[rel] = entryOf(fi)
			if old.dir && fi.IsDir() {
				continue // a folder's own writes show as its entries' changes
			}
			out = append(out, Change{Path: rel, Kind: protocol.FsWrite, IsDir: fi.IsDir(), At: p.at, Last: p.last})
		}
	}
	if len(removedDirs) == 0 {
		return out
	}
	var gone []string
	for p := range w.index {
		for d := p; ; {
			i := strings.LastIndexByte(d, '/')
			if i < 0 {
				break
			}
			d = d[:i]
			if _, ok := removedDirs[d]; ok {
				gone = append(gone, p)
				break
			}
		}
	}
	sort.Strings(gone)
	for _, p := range gone {
		e := w.index[p]
		delete(w.index, p)
		c := removedDirs[topRemoved(p, removedDirs)]
		out = append(out, Change{Path: p, Kind: c.Kind, IsDir: e.dir, At: c.At, Last: c.Last})
	}
	return out
}

func topRemoved(p string, dirs map[string]Change) string {
	best := ""
	for d := p; ; {
		i := strings.LastIndexByte(d, '/')
		if i < 0 {
			return best
		}
		d = d[:i]
		if _, ok := dirs[d]; ok {
			best = d
		}
	}
}

// OnBatch calls fn with every batch delivered from now on, in order, from
// the watcher's own goroutine; subscribers are called in the order they
// subscribed. fn must return quickly and must not call Stop. cancel removes
// the subscription; after it returns, fn may still be running a batch
// already taken, but is not called again.
func (w *Watcher) OnBatch(fn func([]Change)) (cancel func()) {
	w.mu.Lock()
	id := w.nextSub
	w.nextSub++
	w.subs[id] = fn
	w.mu.Unlock()
	return func() {
		w.mu.Lock()
		delete(w.subs, id)
		w.mu.Unlock()
	}
}

// OnChange calls fn when any of paths changes on disk (written, created,
// removed or renamed, by anyone), with the changed ones spelled as given.
// Paths may be absolute (inside the root) or relative to it. A removed or
// renamed folder counts as a change of everything it held. It is what an
// approval dialog uses to say its preview went stale. Same rules as OnBatch.
func (w *Watcher) OnChange(paths []string, fn func(changed []string)) (cancel func()) {
	want := map[string][]string{}
	for _, p := range paths {
		rel := p
		if filepath.IsAbs(p) {
			r, ok := w.rel(filepath.Clean(p))
			if !ok {
				continue
			}
			rel = r
		} else {
			rel = filepath.ToSlash(filepath.Clean(p))
		}
		want[rel] = append(want[rel], p)
	}
	return w.OnBatch(func(batch []Change) {
		var hit []string
		for _, c := range batch {
			hit = append(hit, want[c.Path]...)
		}
		if len(hit) > 0 {
			fn(hit)
		}
	})
}
