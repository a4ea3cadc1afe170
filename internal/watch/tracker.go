package watch

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"gatehouse/internal/protocol"
	"gatehouse/internal/workspace"
)

// Origin says who changed a file.
type Origin string

const (
	OriginAgent   Origin = "agent"   // the agent's file tools
	OriginShell   Origin = "shell"   // while a shell command of the agent ran
	OriginOutside Origin = "outside" // anyone else: the user, their editor, git
)

// ChangedFile is one file changed since the tracker started.
type ChangedFile struct {
	Path   string `json:"path"`   // workspace-relative, slash separated
	Status string `json:"status"` // added, modified or deleted
	Badge  string `json:"badge"`  // A, M or D
	// Origin is who changed it last; Origins everyone who did, first first.
	Origin  Origin   `json:"origin"`
	Origins []Origin `json:"origins"`
	// BaselineKnown is false when the content before the change was not
	// kept (too large, or beyond the cache budget): no diff can be shown.
	BaselineKnown bool `json:"baselineKnown"`
}

// TrackerOptions tune a Tracker; zero values take the defaults.
type TrackerOptions struct {
	Clock Clock
	// CacheBudget is the most bytes of unchanged files kept as future
	// baselines (default 16 MiB); CacheFileMax the largest file kept so
	// (default 256 KiB).
	CacheBudget  int64
	CacheFileMax int64
	// MaxBaseline is the largest file read as a baseline just before the
	// agent writes it (default 2 MiB).
	MaxBaseline int64
	// ShellGrace counts changes noticed this long after a shell command
	// ended as the command's (default 500ms).
	ShellGrace time.Duration
}

// Tracker attributes the changes of a session and keeps each changed file's
// content from before the session touched it. Feed it a Watcher's batches
// (Observe), its first walk (Remember) and what the agent's tools do
// (Middleware). Safe for concurrent use.
//
// Baselines: a file's content "before the session" must be read before it
// changes, so the tracker keeps small unchanged files from the first walk
// (within CacheBudget), the files the agent reads, and reads a file just
// before the agent's own tools write it. A file changed by a shell command
// or from outside that was in none of these has no known baseline.
type Tracker struct {
	root string
	opts TrackerOptions

	mu         sync.Mutex
	cache      map[string][]byte // unchanged files: rel -> content
	cacheBytes int64
	files      map[string]*tracked
	inflight   map[string]int      // paths an agent tool call is writing
	expect     map[string]snapshot // what the agent's last write left
	since      time.Time           // the last Reset: changes noticed before it belong to the session before
	reads      map[string]bool     // files the agent read
	notes      map[string]bool     // read files changed from outside, not yet told
	shellRuns  int
	shellStart time.Time
	spans      []span // ended shell commands
}

type tracked struct {
	baseExists, baseKnown, exists bool
	base                          []byte
	origins                       []Origin
}

type span struct{ start, end time.Time }

type snapshot struct {
	exists bool
	size   int64
	mtime  int64
	mode   fs.FileMode
}

func snap(abs string) snapshot {
	fi, err := os.Lstat(abs)
	if err != nil {
		return snapshot{}
	}
	return snapshot{exists: true, size: fi.Size(), mtime: fi.ModTime().UnixNano(), mode: fi.Mode()}
}

// NewTracker returns a tracker for the workspace rooted at root (absolute,
// symlinks resolved, as Watcher.Root returns it).
func NewTracker(root string, opts TrackerOptions) *Tracker {
	if opts.Clock == nil {
		opts.Clock = RealClock{}
	}
	if opts.CacheBudget <= 0 {
		opts.CacheBudget = 16 << 20
	}
	if opts.CacheFileMax <= 0 {
		opts.CacheFileMax = 256 << 10
	}
	if opts.MaxBaseline <= 0 {
		opts.MaxBaseline = 2 << 20
	}
	if opts.ShellGrace <= 0 {
		opts.ShellGrace = 500 * time.Millisecond
	}
	return &Tracker{root: root, opts: opts, cache: map[string][]byte{}, files: map[string]*tracked{},
		inflight: map[string]int{}, expect: map[string]snapshot{}, reads: map[string]bool{}, notes: map[string]bool{}}
}

func (t *Tracker) abs(rel string) string { return filepath.Join(t.root, filepath.FromSlash(rel)) }

// Rel returns abs relative to the root, slash separated; false outside it.
func (t *Tracker) Rel(abs string) (string, bool) {
	if !strings.HasPrefix(abs, t.root+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(abs[len(t.root)+1:]), true
}

func readCapped(abs string, max int64) ([]byte, bool) {
	// A FIFO or a device is never read (it could wait or never end).
	b, trunc, err := workspace.ReadRegular(abs, max)
	if err != nil || trunc {
		return nil, false
	}
	return b, true
}

// Remember keeps a small unchanged file as its future baseline, within the
// cache budget (Options.OnFile of the Watcher).
func (t *Tracker) Remember(rel, abs string, fi fs.FileInfo) {
	if fi.Size() > t.opts.CacheFileMax {
		return
	}
	t.mu.Lock()
	full := t.cacheBytes+fi.Size() > t.opts.CacheBudget
	t.mu.Unlock()
	if full {
		return
	}
	b, ok := readCapped(abs, t.opts.CacheFileMax)
	if !ok {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, changed := t.files[rel]; !changed {
		t.keepLocked(rel, b)
	}
}

func (t *Tracker) keepLocked(rel string, b []byte) {
	t.cacheBytes += int64(len(b)) - int64(len(t.cache[rel]))
	t.cache[rel] = b
}

// Reset starts the record over for a new session: the badges mark what
// changed in the session shown (UX.md), so the files changed so far become
// unchanged, their content now their baseline (kept within the cache's
// budget, like the first walk's), and what the agent read or was told about
// is forgotten with the session that did it. A change the watcher noticed
// before Reset but delivers after it (its batches wait for a quiet moment)
// belongs to the session before, and is not one of the new session's; one
// noticed again after Reset is.
func (t *Tracker) Reset() {
	t.mu.Lock()
	t.since = t.opts.Clock.Now()
	rels := make([]string, 0, len(t.files))
	for rel, f := range t.files {
		if f.exists {
			rels = append(rels, rel)
		}
	}
	t.files = map[string]*tracked{}
	t.expect = map[string]snapshot{}
	t.reads = map[string]bool{}
	t.notes = map[string]bool{}
	t.mu.Unlock()
	sort.Strings(rels)
	for _, rel := range rels {
		fi, err := os.Lstat(t.abs(rel))
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		t.Remember(rel, t.abs(rel), fi)
	}
}

// ensureBaseline reads rel now, while it is still unchanged, unless its
// baseline is already kept.
func (t *Tracker) ensureBaseline(rel string, max int64) {
	t.mu.Lock()
	_, changed := t.files[rel]
	_, cached := t.cache[rel]
	t.mu.Unlock()
	if changed || cached {
		return
	}
	if b, ok := readCapped(t.abs(rel), max); ok {
		t.mu.Lock()
		if _, changed := t.files[rel]; !changed {
			t.keepLocked(rel, b)
		}
		t.mu.Unlock()
	}
}

// Observe attributes a watcher batch (Watcher.OnBatch).
func (t *Tracker) Observe(batch []Change) {
	var before []string // changed before the last Reset: their baselines are stale
	defer func() {
		for _, rel := range before {
			if fi, err := os.Lstat(t.abs(rel)); err == nil && fi.Mode().IsRegular() {
				t.Remember(rel, t.abs(rel), fi)
			}
		}
	}()
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, c := range batch {
		if c.IsDir {
			continue
		}
		if !t.since.IsZero() && !c.Last.After(t.since) {
			t.cacheBytes -= int64(len(t.cache[c.Path]))
			delete(t.cache, c.Path)
			before = append(before, c.Path)
			continue
		}
		exists := c.Kind == protocol.FsCreate || c.Kind == protocol.FsWrite
		origin := OriginOutside
		e, ok := t.expect[c.Path]
		switch {
		case t.inflight[c.Path] > 0, ok && e == snap(t.abs(c.Path)):
			origin = OriginAgent
		case t.shellAtLocked(c.At), !c.Last.IsZero() && t.shellAtLocked(c.Last):
			// A batch may join the agent's tool write and a command's (or
			// a hook's) later rewrite of the same file: the content now
			// is the command's.
			origin = OriginShell
		}
		if origin != OriginAgent {
			delete(t.expect, c.Path)
		}
		if origin == OriginOutside && t.reads[c.Path] {
			t.notes[c.Path] = true
		}
		t.touchLocked(c.Path, c.Kind == protocol.FsCreate, exists, origin)
		t.backToBaseLocked(c.Path)
	}
}

// backToBaseLocked forgets a change of rel when the file holds its known
// baseline again (an undo, a revert): it is unchanged, its content kept as
// a future baseline like the first walk's.
func (t *Tracker) backToBaseLocked(rel string) {
	f := t.files[rel]
	if f == nil || !f.baseKnown || !f.baseExists || !f.exists {
		return
	}
	fi, err := os.Lstat(t.abs(rel))
	if err != nil || !fi.Mode().IsRegular() || fi.Size() != int64(len(f.base)) {
		return
	}
	b, ok := readCapped(t.abs(rel), int64(len(f.base)))
	if !ok || string(b) != string(f.base) {
		return
	}
	delete(t.files, rel)
	delete(t.expect, rel)
	t.keepLocked(rel, f.base)
}

func (t *Tracker) shellAtLocked(at time.Time) bool {
	if t.shellRuns > 0 && !at.Before(t.shellStart) {
		return true
	}
	keep := t.spans[:0]
	now := t.opts.Clock.Now()
	hit := false
	for _, s := range t.spans {
		if !at.Before(s.start) && !at.After(s.end.Add(t.opts.ShellGrace)) {
			hit = true
		}
		if now.Sub(s.end) < time.Minute {
			keep = append(keep, s)
		}
	}
	t.spans = keep
	return hit
}

// touchLocked records a change of rel; created says the path was not there
// before this change.
func (t *Tracker) touchLocked(rel string, created, exists bool, origin Origin) {
	f := t.files[rel]
	if f == nil {
		f = &tracked{baseExists: !created}
		if created {
			f.baseKnown = true
		} else if b, ok := t.cache[rel]; ok {
			f.base, f.baseKnown = b, true
		}
		t.cacheBytes -= int64(len(t.cache[rel]))
		delete(t.cache, rel)
		t.files[rel] = f
	}
	f.exists = exists
	if len(f.origins) == 0 || f.origins[len(f.origins)-1] != origin {
		f.origins = appendOnce(f.origins, origin)
	}
	if !f.baseExists && !f.exists {
		delete(t.files, rel) // created and removed again: no change
	}
}

func appendOnce(list []Origin, o Origin) []Origin {
	out := list[:0:0]
	for _, x := range list {
		if x != o {
			out = append(out, x)
		}
	}
	return append(out, o)
}

// ShellStarted marks a shell command of the agent as running: changes
// noticed until the returned end is called (and ShellGrace after) are the
// shell's.
func (t *Tracker) ShellStarted() (end func()) {
	t.mu.Lock()
	now := t.opts.Clock.Now()
	if t.shellRuns == 0 {
		t.shellStart = now
	}
	t.shellRuns++
	t.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			t.spans = append(t.spans, span{start: now, end: t.opts.Clock.Now()})
			t.shellRuns--
		})
	}
}

// Writing marks rels as being written by the agent's file tools: their
// baselines are read now if not kept, and changes noticed until done is
// called are the agent's. done records what the write left, so that later
// changes by others are told apart; paths the call did not change (a failed
// or partial call) are not marked changed.
func (t *Tracker) Writing(rels []string) (done func()) {
	before := make([]snapshot, len(rels))
	for i, rel := range rels {
		t.ensureBaseline(rel, t.opts.MaxBaseline)
		before[i] = snap(t.abs(rel))
	}
	t.mu.Lock()
	for _, rel := range rels {
		t.inflight[rel]++
	}
	t.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			t.mu.Lock()
			defer t.mu.Unlock()
			for i, rel := range rels {
				t.inflight[rel]--
				if t.inflight[rel] <= 0 {
					delete(t.inflight, rel)
				}
				after := snap(t.abs(rel))
				if after == before[i] {
					continue
				}
				t.expect[rel] = after
				t.touchLocked(rel, !before[i].exists, after.exists, OriginAgent)
			}
		})
	}
}

// Read records that the agent read rels (read_file): a later change of one
// from outside is named in the next note. Their content is kept as their
// baseline if none is.
func (t *Tracker) Read(rels ...string) {
	for _, rel := range rels {
		t.ensureBaseline(rel, t.opts.CacheFileMax)
		t.mu.Lock()
		t.reads[rel] = true
		delete(t.notes, rel) // the agent has the current content now
		t.mu.Unlock()
	}
}

// Notes returns, once, a note for the model naming the files it read that
// changed on disk from outside since; nil when there is none.
func (t *Tracker) Notes() []string {
	t.mu.Lock()
	names := sortedKeys(t.notes)
	t.notes = map[string]bool{}
	t.mu.Unlock()
	if len(names) == 0 {
		return nil
	}
	more := ""
	if len(names) > 20 {
		more = fmt.Sprintf(" and %d more", len(names)-20)
		names = names[:20]
	}
	return []string{fmt.Sprintf("Note from Gatehouse: files you read earlier were changed on disk by someone else since (not by your tools): %s%s. Read them again before you edit them.",
		strings.Join(names, ", "), more)}
}

// Changed lists the files changed since the tracker started, by path.
func (t *Tracker) Changed() []ChangedFile {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]ChangedFile, 0, len(t.files))
	for _, rel := range sortedKeys(t.files) {
		out = append(out, t.describeLocked(rel, t.files[rel]))
	}
	return out
}

func (t *Tracker) describeLocked(rel string, f *tracked) ChangedFile {
	c := ChangedFile{Path: rel, Status: "modified", Badge: "M", Origins: append([]Origin(nil), f.origins...), BaselineKnown: f.baseKnown}
	if len(f.origins) > 0 {
		c.Origin = f.origins[len(f.origins)-1]
	}
	switch {
	case !f.baseExists:
		c.Status, c.Badge = "added", "A"
	case !f.exists:
		c.Status, c.Badge = "deleted", "D"
	}
	return c
}

// Baseline returns what rel held before the session touched it. ok is false
// when rel did not change; known is false when the content was not kept.
func (t *Tracker) Baseline(rel string) (c ChangedFile, base []byte, known, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	f := t.files[rel]
	if f == nil {
		return ChangedFile{}, nil, false, false
	}
	return t.describeLocked(rel, f), f.base, f.baseKnown, true
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
