package watch

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/protocol"
)

// fakeClock is a manual Clock: timers run, synchronously, when Advance
// passes their time.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at   time.Time
	f    func()
	done bool
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Unix(1_700_000_000, 0)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		if t.done {
			return false
		}
		t.done = true
		return true
	}
}

// Advance moves the time on by d, running each timer that falls due.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	for {
		var next *fakeTimer
		for _, t := range c.timers {
			if !t.done && !t.at.After(end) && (next == nil || t.at.Before(next.at)) {
				next = t
			}
		}
		if next == nil {
			break
		}
		next.done = true
		if next.at.After(c.now) {
			c.now = next.at
		}
		c.mu.Unlock()
		next.f()
		c.mu.Lock()
	}
	c.now = end
	c.mu.Unlock()
}

// recorder collects the batches a watcher delivers.
type recorder struct {
	mu      sync.Mutex
	batches [][]Change
}

func (r *recorder) add(b []Change) {
	r.mu.Lock()
	r.batches = append(r.batches, append([]Change(nil), b...))
	r.mu.Unlock()
}

func (r *recorder) take() [][]Change {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.batches
	r.batches = nil
	return b
}

// kinds flattens batches to path -> last kind.
func kinds(batches [][]Change) map[string]protocol.FsChangeKind {
	m := map[string]protocol.FsChangeKind{}
	for _, b := range batches {
		for _, c := range b {
			m[c.Path] = c.Kind
		}
	}
	return m
}

func startWatcher(t *testing.T, root string, opts Options) (*Watcher, *fakeClock, *recorder) {
	t.Helper()
	c := newFakeClock()
	opts.Clock = c
	w, err := New(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	w.OnBatch(rec.add)
	w.Start()
	select {
	case <-w.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("first walk did not finish")
	}
	t.Cleanup(w.Stop)
	return w, c, rec
}

// settle waits until the system has handed over every event (none for a
// while), then moves the clock past the debounce so the batch is delivered.
func settle(t *testing.T, w *Watcher, c *fakeClock) {
	t.Helper()
	last, still := int64(-1), 0
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); {
		n := w.Stats().RawEvents
		if n == last {
			still++
			if still >= 8 {
				c.Advance(5 * time.Second)
				return
			}
		} else {
			last, still = n, 0
		}
		time.Sleep(25 * time.Millisecond)
	}
	t.Fatal("events did not settle")
}

func write(t *testing.T, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// waitNoticed waits until the watcher has rel in its pending batch (noticed,
// not delivered: the fake clock holds the batch back).
func waitNoticed(t *testing.T, w *Watcher, rel string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		w.mu.Lock()
		_, ok := w.pending[rel]
		w.mu.Unlock()
		if ok {
			return
		}
	}
	t.Fatalf("the watcher never noticed %s", rel)
}
