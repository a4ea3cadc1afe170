package watch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

func lstat(p string) (fs.FileInfo, error) { return os.Lstat(p) }

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// walk watches folder rel and everything below it that is not ignored. The
// first walk (initial) fills the index; later walks (a folder that appeared)
// mark what they find as pending, since it is new.
func (w *Watcher) walk(rel string, initial bool) {
	w.walkDir(rel, initial, w.underUnwatched(rel))
}

func (w *Watcher) walkDir(rel string, initial, unwatched bool) {
	if w.isStopped() {
		return
	}
	w.ign.Load(rel)
	if !unwatched {
		unwatched = !w.addWatch(rel)
	}
	ents, err := os.ReadDir(w.abs(rel))
	if err != nil {
		return
	}
	for _, e := range ents {
		child := join(rel, e.Name())
		isDir := e.IsDir()
		if w.ign.Ignored(child, isDir) {
			continue
		}
		if initial {
			fi, err := e.Info()
			if err != nil {
				continue
			}
			w.deliverMu.Lock()
			w.index[child] = entryOf(fi)
			w.deliverMu.Unlock()
			if !isDir && fi.Mode().IsRegular() && w.opts.OnFile != nil {
				w.opts.OnFile(child, w.abs(child), fi)
			}
		} else {
			w.mark(child, false)
		}
		if isDir {
			w.walkDir(child, initial, unwatched)
		}
	}
}

// addWatch watches folder rel; false when it cannot be watched because of
// the cap or the system's limit (the folder's tree is then rescanned
// periodically) or because it is gone.
func (w *Watcher) addWatch(rel string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return true // nothing to do; keep walking cheap
	}
	if w.dirs[rel] {
		return true
	}
	if w.opts.MaxWatches > 0 && len(w.dirs) >= w.opts.MaxWatches {
		w.unwatchLocked(rel, fmt.Sprintf("Gatehouse watches at most %d folders", w.opts.MaxWatches))
		return false
	}
	err := w.fsw.Add(w.abs(rel))
	switch {
	case err == nil:
		w.dirs[rel] = true
		return true
	case errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE):
		w.unwatchLocked(rel, "the system's limit on watched folders (fs.inotify.max_user_watches) is reached")
		return false
	default:
		return true // gone or unreadable: nothing to rescan either
	}
}

// unwatchLocked leaves the tree of rel to periodic rescans.
func (w *Watcher) unwatchLocked(rel, why string) {
	w.unwatched[rel] = true
	if !w.degraded {
		w.degraded = true
		w.notice = fmt.Sprintf("Not every folder can be watched live: %s. Changes in the others are found by rescanning every %s.", why, w.opts.RescanEvery)
	}
	if w.rescanStop == nil {
		w.wg.Add(1)
		w.rescanStop = w.opts.Clock.AfterFunc(w.opts.RescanEvery, w.periodicRescan)
	}
}

// announce tells OnDegraded once, outside the lock.
func (w *Watcher) announce() {
	w.mu.Lock()
	msg := w.notice
	w.notice = ""
	w.mu.Unlock()
	if msg != "" && w.opts.OnDegraded != nil {
		w.opts.OnDegraded(msg)
	}
}

func (w *Watcher) underUnwatched(rel string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	for r := range w.unwatched {
		if r == "" || rel == r || strings.HasPrefix(rel, r+"/") {
			return true
		}
	}
	return false
}

// dropWatches forgets folder rel and the folders below it: a removed folder
// lost its watches already; a renamed one keeps them under its old name in
// the system, so they are released here.
func (w *Watcher) dropWatches(rel string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	prefix := rel + "/"
	if w.dirs[rel] {
		for d := range w.dirs {
			if d == rel || strings.HasPrefix(d, prefix) {
				_ = w.fsw.Remove(w.abs(d)) // already gone with the folder: fine
				delete(w.dirs, d)
			}
		}
	}
	for d := range w.unwatched {
		if d == rel || strings.HasPrefix(d, prefix) {
			delete(w.unwatched, d)
		}
	}
}

func (w *Watcher) periodicRescan() {
	defer w.wg.Done()
	w.mu.Lock()
	w.rescanStop = nil
	if w.stopped {
		w.mu.Unlock()
		return
	}
	roots := make([]string, 0, len(w.unwatched))
	for r := range w.unwatched {
		roots = append(roots, r)
	}
	w.mu.Unlock()
	for _, r := range roots {
		w.rescan(r)
	}
	w.mu.Lock()
	if !w.stopped && len(w.unwatched) > 0 && w.rescanStop == nil {
		w.wg.Add(1)
		w.rescanStop = w.opts.Clock.AfterFunc(w.opts.RescanEvery, w.periodicRescan)
	}
	w.mu.Unlock()
}

// rescan compares the tree of rel on disk with the index and marks what
// differs as pending. Folders found that are not watched, and not under an
// unwatched tree, get watched.
func (w *Watcher) rescan(rel string) {
	w.rescans.Add(1)
	seen := map[string]entry{}
	w.scanInto(rel, seen, w.underUnwatched(rel))
	if fi, err := lstat(w.abs(rel)); err != nil || !fi.IsDir() {
		w.dropWatches(rel)
	}
	w.deliverMu.Lock()
	var diff []string
	for p, e := range seen {
		if old, ok := w.index[p]; !ok || old != e && !(old.dir && e.dir) {
			diff = append(diff, p)
		}
	}
	prefix := rel + "/"
	for p := range w.index {
		if rel == "" || p == rel || strings.HasPrefix(p, prefix) {
			if _, ok := seen[p]; !ok {
				diff = append(diff, p)
			}
		}
	}
	w.deliverMu.Unlock()
	for _, p := range diff {
		w.mark(p, false)
	}
	w.announce()
}

func (w *Watcher) scanInto(rel string, seen map[string]entry, unwatched bool) {
	if w.isStopped() {
		return
	}
	if !unwatched {
		unwatched = !w.addWatch(rel)
	}
	ents, err := os.ReadDir(w.abs(rel))
	if err != nil {
		return
	}
	for _, e := range ents {
		child := join(rel, e.Name())
		if w.ign.Ignored(child, e.IsDir()) {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		seen[child] = entryOf(fi)
		if e.IsDir() {
			w.scanInto(child, seen, unwatched)
		}
	}
}
