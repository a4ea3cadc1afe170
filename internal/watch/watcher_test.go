//go:build linux

package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/protocol"
)

func TestNestedNewFoldersCreateRenameDelete(t *testing.T) {
	root := t.TempDir()
	w, c, rec := startWatcher(t, root, Options{})

	write(t, root, "a/b/c/f.txt", "one")
	settle(t, w, c)
	got := kinds(rec.take())
	want := map[string]protocol.FsChangeKind{"a": "create", "a/b": "create", "a/b/c": "create", "a/b/c/f.txt": "create"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("after mkdir -p and a write: %v, want %v", got, want)
	}

	// The new, nested folder is watched: a second file in it is seen.
	write(t, root, "a/b/c/g.txt", "two")
	write(t, root, "a/b/c/f.txt", "one, changed")
	settle(t, w, c)
	if got := kinds(rec.take()); !reflect.DeepEqual(got, map[string]protocol.FsChangeKind{"a/b/c/g.txt": "create", "a/b/c/f.txt": "write"}) {
		t.Fatalf("in the new folder: %v", got)
	}

	if err := os.Rename(filepath.Join(root, "a/b/c/f.txt"), filepath.Join(root, "a/b/c/h.txt")); err != nil {
		t.Fatal(err)
	}
	settle(t, w, c)
	if got := kinds(rec.take()); !reflect.DeepEqual(got, map[string]protocol.FsChangeKind{"a/b/c/f.txt": "rename", "a/b/c/h.txt": "create"}) {
		t.Fatalf("file rename: %v", got)
	}

	// A renamed folder: the old paths go, the new ones come, and the new
	// name is watched (not the old one).
	if err := os.Rename(filepath.Join(root, "a/b"), filepath.Join(root, "a/x")); err != nil {
		t.Fatal(err)
	}
	settle(t, w, c)
	got = kinds(rec.take())
	want = map[string]protocol.FsChangeKind{
		"a/b": "rename", "a/b/c": "rename", "a/b/c/g.txt": "rename", "a/b/c/h.txt": "rename",
		"a/x": "create", "a/x/c": "create", "a/x/c/g.txt": "create", "a/x/c/h.txt": "create",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("folder rename: %v, want %v", got, want)
	}
	write(t, root, "a/x/c/new.txt", "three")
	settle(t, w, c)
	if got := kinds(rec.take()); !reflect.DeepEqual(got, map[string]protocol.FsChangeKind{"a/x/c/new.txt": "create"}) {
		t.Fatalf("in the renamed folder: %v", got)
	}

	if err := os.RemoveAll(filepath.Join(root, "a")); err != nil {
		t.Fatal(err)
	}
	settle(t, w, c)
	got = kinds(rec.take())
	for _, p := range []string{"a", "a/x", "a/x/c", "a/x/c/g.txt", "a/x/c/h.txt", "a/x/c/new.txt"} {
		if got[p] != protocol.FsRemove {
			t.Errorf("after rm -rf: %s is %q, want remove (all: %v)", p, got[p], got)
		}
	}
	if wl := w.WatchList(); len(wl) != 1 || wl[0] != w.Root() {
		t.Errorf("watches after the folders went: %v, want only the root", wl)
	}
}

func TestBurstIsCoalesced(t *testing.T) {
	root := t.TempDir()
	w, c, rec := startWatcher(t, root, Options{Quiet: 100 * time.Millisecond, MaxWait: time.Second})
	const n = 5000
	// A checkout: 50 new nested folders of 100 files each, the clock moving
	// 1ms every 10 files as the burst goes on.
	for i := 0; i < n; i++ {
		write(t, root, fmt.Sprintf("src/pkg%02d/sub/file%04d.go", i/100, i), "package x\n")
		if i%10 == 9 {
			c.Advance(time.Millisecond)
		}
	}
	settle(t, w, c)
	batches := rec.take()
	if len(batches) > 5 {
		t.Errorf("a %d-file burst gave %d batches, want at most 5", n, len(batches))
	}
	files := 0
	for p, k := range kinds(batches) {
		if strings.HasSuffix(p, ".go") {
			files++
			if k != protocol.FsCreate {
				t.Errorf("%s: %s, want create", p, k)
			}
		}
	}
	if files != n {
		t.Errorf("batches named %d files, want %d", files, n)
	}
	t.Logf("%d batches, %d raw events", len(batches), w.Stats().RawEvents)
}

func TestIgnoredFoldersProduceNothing(t *testing.T) {
	root := t.TempDir()
	write(t, root, ".gitignore", "logs/\n*.tmp\n")
	write(t, root, "pkg/.gitignore", "generated/\n")
	write(t, root, "src/main.go", "package main\n")
	w, c, rec := startWatcher(t, root, Options{})

	for _, p := range []string{
		"node_modules/left-pad/index.js", ".git/objects/aa/bb", "logs/today.log", "dist/app.js",
		"target/debug/x", "__pycache__/m.pyc", "notes.tmp", "src/.venv/bin/python", "pkg/generated/z.go",
	} {
		write(t, root, p, "x")
	}
	settle(t, w, c)
	if b := rec.take(); len(b) != 0 {
		t.Fatalf("ignored paths gave batches: %v", b)
	}
	write(t, root, "kept.txt", "x")
	settle(t, w, c)
	if got := kinds(rec.take()); !reflect.DeepEqual(got, map[string]protocol.FsChangeKind{"kept.txt": "create"}) {
		t.Fatalf("got %v, want only kept.txt", got)
	}
	for _, d := range w.WatchList() {
		rel, _ := w.rel(d)
		for _, bad := range []string{"node_modules", ".git", "logs", "dist", "target", "__pycache__", ".venv", "generated"} {
			if strings.Contains("/"+rel+"/", "/"+bad+"/") {
				t.Errorf("ignored folder %s is watched", rel)
			}
		}
	}
}

func TestWatchLimitFallsBackToRescans(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"a", "b", "c/deep"} {
		write(t, root, d+"/keep.txt", "x")
	}
	var mu sync.Mutex
	var reasons []string
	w, c, rec := startWatcher(t, root, Options{MaxWatches: 2, RescanEvery: 2 * time.Second, OnDegraded: func(r string) {
		mu.Lock()
		reasons = append(reasons, r)
		mu.Unlock()
	}})
	st := w.Stats()
	if st.Watches != 2 || !st.Degraded || st.Unwatched == 0 {
		t.Fatalf("stats with a cap of 2: %+v", st)
	}
	// The watcher announces degradation from its own goroutine: wait for it,
	// and never fail while holding mu (its callback would block Stop).
	var announced []string
	for deadline := time.Now().Add(10 * time.Second); ; {
		mu.Lock()
		announced = append([]string(nil), reasons...)
		mu.Unlock()
		if len(announced) > 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	if len(announced) != 1 || !strings.Contains(announced[0], "at most 2 folders") {
		t.Fatalf("degraded reasons: %q", announced)
	}
	if n := len(w.WatchList()); n != 2 {
		t.Fatalf("%d system watches, want 2", n)
	}

	// Changes everywhere, watched or not, are still noticed.
	write(t, root, "c/deep/new.txt", "x")
	write(t, root, "c/deep/keep.txt", "changed!")
	write(t, root, "b/keep.txt", "changed!")
	write(t, root, "c/newdir/inner.txt", "x")
	settle(t, w, c) // delivers what the watched folders saw, and rescans
	c.Advance(5 * time.Second)
	got := kinds(rec.take())
	want := map[string]protocol.FsChangeKind{
		"c/deep/new.txt": "create", "c/deep/keep.txt": "write", "b/keep.txt": "write",
		"c/newdir": "create", "c/newdir/inner.txt": "create",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("with the fallback: %v, want %v", got, want)
	}
	if err := os.RemoveAll(filepath.Join(root, "c")); err != nil {
		t.Fatal(err)
	}
	settle(t, w, c)
	c.Advance(5 * time.Second)
	if got := kinds(rec.take()); got["c/deep/new.txt"] != protocol.FsRemove || got["c"] != protocol.FsRemove {
		t.Fatalf("removal in an unwatched tree: %v", got)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reasons) != 1 {
		t.Fatalf("degraded announced %d times", len(reasons))
	}
}

func TestOnChangeNamesTheSubscribedPaths(t *testing.T) {
	root := t.TempDir()
	write(t, root, "a.txt", "a")
	write(t, root, "dir/b.txt", "b")
	write(t, root, "c.txt", "c")
	w, c, _ := startWatcher(t, root, Options{})
	var mu sync.Mutex
	var got [][]string
	cancel := w.OnChange([]string{"a.txt", "./dir/b.txt", filepath.Join(w.Root(), "c.txt")}, func(ch []string) {
		mu.Lock()
		sort.Strings(ch)
		got = append(got, ch)
		mu.Unlock()
	})
	write(t, root, "other.txt", "x")
	settle(t, w, c)
	write(t, root, "a.txt", "a2")
	if err := os.RemoveAll(filepath.Join(root, "dir")); err != nil {
		t.Fatal(err)
	}
	settle(t, w, c)
	cancel()
	write(t, root, "c.txt", "c2")
	settle(t, w, c)
	mu.Lock()
	defer mu.Unlock()
	if want := [][]string{{"./dir/b.txt", "a.txt"}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("OnChange calls: %q, want %q", got, want)
	}
}

func TestStopReleasesWatchesAndGoroutines(t *testing.T) {
	before := runtime.NumGoroutine()
	root := t.TempDir()
	for i := 0; i < 20; i++ {
		write(t, root, fmt.Sprintf("d%02d/e/f.txt", i), "x")
	}
	for round := 0; round < 3; round++ {
		c := newFakeClock()
		w, err := New(root, Options{Clock: c, MaxWatches: 30, RescanEvery: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		w.OnBatch(func([]Change) {})
		w.Start()
		<-w.Ready()
		if n, st := len(w.WatchList()), w.Stats(); n != st.Watches || n != 30 {
			t.Fatalf("system watches %d, watcher counts %d, want 30", n, st.Watches)
		}
		write(t, root, "d00/e/f.txt", fmt.Sprint(round)) // a batch and a rescan pending at Stop
		settle(t, w, c)
		write(t, root, "d00/e/g.txt", fmt.Sprint(round))
		time.Sleep(50 * time.Millisecond)
		w.Stop()
		w.Stop()
		if wl := w.WatchList(); len(wl) != 0 {
			t.Fatalf("watches after Stop: %v", wl)
		}
		c.Advance(time.Minute) // timers stopped: nothing runs
	}
	deadline := time.Now().Add(30 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines after Stop, %d before:\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}
