package watch

import (
	"errors"
	"io/fs"
	"log/slog"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"

	"gatehouse/internal/protocol"
)

// Options tune a Watcher; zero values take the defaults.
type Options struct {
	// Clock decides when batches are delivered (default: the wall clock).
	Clock Clock
	// Quiet: a batch is delivered once no change arrived for Quiet
	// (default 150ms) ...
	Quiet time.Duration
	// MaxWait: ... or at the latest MaxWait after its first change
	// (default 1s), so a long burst still shows progress.
	MaxWait time.Duration
	// MaxWatches caps the folders watched; 0 means as many as the system
	// allows (its inotify limit is handled the same way as this cap).
	MaxWatches int
	// RescanEvery is the period of the rescans of the folders that could not
	// be watched (default 3s).
	RescanEvery time.Duration
	// Ignore lists names never watched, wherever they are (nil:
	// BuiltinIgnored). .gitignore files are honoured on top of it.
	Ignore []string
	// OnDegraded is called once, from the goroutine that found out, when
	// some folders cannot be watched live; reason is a sentence for the UI.
	OnDegraded func(reason string)
	// OnFile is called for each regular file the first walk finds (rel is
	// workspace-relative, slash separated). Trackers use it to keep small
	// files as "before the session" baselines. It must be quick.
	OnFile func(rel, abs string, fi fs.FileInfo)
	// Log receives errors worth a line (default: discarded).
	Log *slog.Logger
}

// Change is one changed path of a batch.
type Change struct {
	// Path is workspace-relative and slash separated.
	Path string
	Kind protocol.FsChangeKind
	// IsDir is set for folders (for a removed path: it was a folder).
	IsDir bool
	// At is when the watcher first noticed the change, by its clock, and
	// Last when it last did (changes to one path in a batch are one Change).
	At, Last time.Time
}

// Stats counts what a Watcher did, for tests and benchmarks.
type Stats struct {
	Watches   int   // folders watched now
	Unwatched int   // folder trees left to periodic rescans
	RawEvents int64 // events read from the system, ignored paths excluded
	Batches   int64 // batches delivered
	Rescans   int64
	Degraded  bool
}

// Watcher watches one workspace folder tree. See the package doc for its
// delivery rules. Its methods are safe for concurrent use.
type Watcher struct {
	root string
	opts Options
	fsw  *fsnotify.Watcher
	ign  *Ignorer
	log  *slog.Logger

	// deliverMu orders deliveries and guards index; taken before mu.
	deliverMu sync.Mutex
	index     map[string]entry // what subscribers were told exists

	mu         sync.Mutex
	dirs       map[string]bool // folders watched (rel, "" is the root)
	unwatched  map[string]bool // roots of trees that could not be watched
	pending    map[string]*pend
	order      []string
	firstAt    time.Time
	lastAt     time.Time
	flushStop  func() bool
	rescanStop func() bool
	subs       map[int]func([]Change)
	nextSub    int
	degraded   bool
	notice     string // degraded reason not yet announced
	stopped    bool

	wg       sync.WaitGroup
	started  atomic.Bool
	stopOnce sync.Once
	ready    chan struct{}
	raw      atomic.Int64
	batches  atomic.Int64
	rescans  atomic.Int64
}

type pend struct {
	at, last time.Time
	renamed  bool
}

type entry struct {
	dir   bool
	size  int64
	mtime int64
}

func entryOf(fi fs.FileInfo) entry {
	return entry{dir: fi.IsDir(), size: fi.Size(), mtime: fi.ModTime().UnixNano()}
}

// New returns a watcher of root (an existing folder); nothing is watched
// until Start.
func New(root string, opts Options) (*Watcher, error) {
	if opts.Clock == nil {
		opts.Clock = RealClock{}
	}
	if opts.Quiet <= 0 {
		opts.Quiet = 150 * time.Millisecond
	}
	if opts.MaxWait <= 0 {
		opts.MaxWait = time.Second
	}
	if opts.RescanEvery <= 0 {
		opts.RescanEvery = 3 * time.Second
	}
	if opts.Ignore == nil {
		opts.Ignore = BuiltinIgnored
	}
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	// A buffer lets the reader hand over events in runs instead of one
	// goroutine switch each.
	fsw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return nil, err
	}
	return &Watcher{
		root: abs, opts: opts, fsw: fsw, ign: NewIgnorer(abs, opts.Ignore), log: log,
		index: map[string]entry{}, dirs: map[string]bool{}, unwatched: map[string]bool{},
		pending: map[string]*pend{}, subs: map[int]func([]Change){}, ready: make(chan struct{}),
	}, nil
}

// Root returns the watched folder, absolute with symlinks resolved.
func (w *Watcher) Root() string { return w.root }

// Ignorer returns the ignore rules in force, e.g. to dim ignored entries in
// a file tree.
func (w *Watcher) Ignorer() *Ignorer { return w.ign }

// Start walks the tree and watches it, in the background; Ready is closed
// once the first walk is done. Start once; a stopped watcher stays stopped.
func (w *Watcher) Start() {
	if !w.started.CompareAndSwap(false, true) {
		return
	}
	w.mu.Lock()
	if w.stopped {
		w.mu.Unlock()
		close(w.ready)
		return
	}
	w.wg.Add(1)
	w.mu.Unlock()
	go w.run()
}

// Ready is closed when the first walk is done (or the watcher stopped).
func (w *Watcher) Ready() <-chan struct{} { return w.ready }

// Stop releases every watch and waits for the watcher's goroutines and
// callbacks to end; pending changes are dropped. It may be called more than
// once, but not from a callback of this watcher.
func (w *Watcher) Stop() {
	w.stopOnce.Do(func() {
		w.mu.Lock()
		w.stopped = true
		for _, stop := range []*func() bool{&w.flushStop, &w.rescanStop} {
			if *stop != nil && (*stop)() {
				w.wg.Done()
			}
			*stop = nil
		}
		w.mu.Unlock()
		_ = w.fsw.Close()
		w.wg.Wait()
		if !w.started.Load() {
			close(w.ready)
		}
	})
}

// WatchList returns the folders the system watches for this watcher
// (absolute paths); empty once stopped.
func (w *Watcher) WatchList() []string { return w.fsw.WatchList() }

// Stats returns counters of what the watcher did.
func (w *Watcher) Stats() Stats {
	w.mu.Lock()
	defer w.mu.Unlock()
	return Stats{Watches: len(w.dirs), Unwatched: len(w.unwatched), RawEvents: w.raw.Load(),
		Batches: w.batches.Load(), Rescans: w.rescans.Load(), Degraded: w.degraded}
}

func (w *Watcher) isStopped() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.stopped
}

func (w *Watcher) run() {
	defer w.wg.Done()
	w.walk("", true)
	close(w.ready)
	w.announce()
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			w.event(ev)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				// The system dropped events: find out what changed by looking.
				w.log.Warn("watch: events lost, rescanning", "root", w.root)
				w.rescan("")
			} else {
				w.log.Warn("watch: error", "err", err)
			}
		}
	}
}

// rel returns abs relative to the root, slash separated ("" for the root).
func (w *Watcher) rel(abs string) (string, bool) {
	if abs == w.root {
		return "", true
	}
	if !strings.HasPrefix(abs, w.root+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(abs[len(w.root)+1:]), true
}

func (w *Watcher) abs(rel string) string {
	if rel == "" {
		return w.root
	}
	return filepath.Join(w.root, filepath.FromSlash(rel))
}

// event handles one system event: new folders are walked and watched at
// once (so nothing created inside them is missed), vanished ones release
// their watches, and the path joins the pending batch.
func (w *Watcher) event(ev fsnotify.Event) {
	rel, ok := w.rel(ev.Name)
	if !ok || rel == "" || ev.Op == fsnotify.Chmod {
		return
	}
	if w.ign.IgnoredPath(rel) {
		return
	}
	w.raw.Add(1)
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		w.dropWatches(rel)
	}
	if path.Base(rel) == ".gitignore" {
		dir := path.Dir(rel)
		if dir == "." {
			dir = ""
		}
		w.ign.Load(dir)
	}
	w.mark(rel, ev.Has(fsnotify.Rename))
	if ev.Has(fsnotify.Create) {
		if fi, err := lstat(ev.Name); err == nil && fi.IsDir() {
			w.walk(rel, false)
			w.announce()
		}
	}
}
