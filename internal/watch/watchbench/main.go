// Command watchbench measures the workspace watcher on a burst of file
// changes made by another process (as a git checkout would): how many
// fs.changed events reach the UI, how long after the burst the last one
// arrives, and the CPU time the watching process spent.
//
//	go run ./internal/watch/watchbench [-files 5000] [-dirs 50]
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"sync"
	"time"

	"gatehouse/internal/events"
	"gatehouse/internal/protocol"
	"gatehouse/internal/watch"
)

func main() {
	files := flag.Int("files", 5000, "files in the burst")
	dirs := flag.Int("dirs", 50, "folders they are spread over (each two levels deep)")
	profile := flag.String("cpuprofile", "", "write a CPU profile here")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	if err := run(*files, *dirs); err != nil {
		fmt.Fprintln(os.Stderr, "watchbench:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// counter is the UI's end of the event bus.
type counter struct {
	mu     sync.Mutex
	events int
	paths  int
	last   time.Time
}

func (c *counter) Emit(e protocol.Event) {
	if e.Type != protocol.FsChanged {
		return
	}
	p := e.Payload.(protocol.FsChangedPayload)
	c.mu.Lock()
	c.events++
	c.paths += len(p.Paths)
	c.last = time.Now()
	c.mu.Unlock()
}

func (c *counter) take() (int, int, time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, p, l := c.events, c.paths, c.last
	c.events, c.paths = 0, 0
	return e, p, l
}

func run(nFiles, nDirs int) error {
	tmp, err := os.MkdirTemp("", "watchbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	// Two versions of a source tree, as two branches would be.
	for v, body := range []string{"package x // one\n", "package x // two, a little longer\n"} {
		for i := 0; i < nFiles; i++ {
			p := filepath.Join(tmp, fmt.Sprintf("v%d/src/pkg%03d/sub/file%05d.go", v, i%nDirs, i))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				return err
			}
		}
	}
	ws := filepath.Join(tmp, "ws")
	if err := os.MkdirAll(ws, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(ws, "README.md"), []byte("# bench\n"), 0o644); err != nil {
		return err
	}

	sink := &counter{}
	bus := events.New(sink, events.Options{})
	defer bus.Close()
	w, err := watch.New(ws, watch.Options{})
	if err != nil {
		return err
	}
	tr := watch.NewTracker(w.Root(), watch.TrackerOptions{})
	w.OnBatch(tr.Observe)
	w.OnBatch(func(b []watch.Change) {
		bus.Publish(protocol.Event{Type: protocol.FsChanged, Payload: watch.Payload(b, 2000)})
	})
	w.Start()
	<-w.Ready()
	defer w.Stop()

	fmt.Printf("watch: a %d-file burst in %d new folders, made by another process (cp -r / rm -rf)\n", nFiles, 2*nDirs+1)
	fmt.Printf("%-28s %8s %10s %10s %14s %12s\n", "burst", "events", "batches", "raw", "last event", "watcher CPU")
	steps := []struct {
		name string
		cmd  []string
		want int // changed files to wait for
	}{
		{"checkout (create)", []string{"cp", "-r", filepath.Join(tmp, "v0/src"), ws}, nFiles},
		{"switch branch (rewrite)", []string{"cp", "-r", filepath.Join(tmp, "v1/src"), ws}, nFiles},
		{"clean (rm -rf)", []string{"rm", "-rf", filepath.Join(ws, "src")}, nFiles},
	}
	for _, s := range steps {
		before := w.Stats()
		c0 := cpu()
		start := time.Now()
		if out, err := exec.Command(s.cmd[0], s.cmd[1:]...).CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v: %s", s.name, err, out)
		}
		burstEnd := time.Now()
		// Wait until a second has passed with no event.
		var events, paths int
		var last time.Time
		for quiet := time.Now(); time.Since(quiet) < time.Second && time.Since(start) < 60*time.Second; {
			time.Sleep(50 * time.Millisecond)
			bus.Flush()
			e, p, l := sink.take()
			if e > 0 {
				events, paths, last, quiet = events+e, paths+p, l, time.Now()
			}
		}
		used := cpu() - c0
		after := w.Stats()
		lag := "-"
		if !last.IsZero() {
			lag = fmt.Sprintf("+%dms", last.Sub(burstEnd).Milliseconds())
		}
		fmt.Printf("%-28s %8d %10d %10d %14s %10dms\n", s.name, events, after.Batches-before.Batches,
			after.RawEvents-before.RawEvents, lag, used.Milliseconds())
		_ = paths
	}
	fmt.Printf("changed files tracked at the end: %d (created then removed again: none left)\n", len(tr.Changed()))
	fmt.Println("events: fs.changed events the UI received; last event: after the burst's process ended; CPU: user+sys of this process while it watched")
	return nil
}
