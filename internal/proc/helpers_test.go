//go:build linux

package proc

import (
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/suptest"
)

// supervised makes o run its commands the way the app does: under the
// supervisor helper, confined where the kernel has Landlock (the folder of
// each command and the temp folder writable).
func supervised(t *testing.T, o *Options) {
	o.Supervisor = suptest.Binary(t)
	if sandbox.ABI() > 0 {
		o.Sandbox = func(dir string) *sandbox.Policy {
			p := sandbox.Build(sandbox.Spec{Workspace: dir, Env: os.Environ()})
			return &p
		}
	}
}

// TestMain doubles as a helper process: PROCTEST_HELPER=listen listens on a
// free TCP port, writes the port to $PROCTEST_PORTFILE and waits.
func TestMain(m *testing.M) {
	if os.Getenv("PROCTEST_HELPER") == "listen" {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			os.Exit(2)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		os.WriteFile(os.Getenv("PROCTEST_PORTFILE"), []byte(fmt.Sprint(port)), 0o600)
		time.Sleep(30 * time.Second)
		os.Exit(0)
	}
	code := m.Run()
	suptest.Cleanup()
	os.Exit(code)
}

type fakeTicker struct{ c chan time.Time }

func newFakeTicker() *fakeTicker          { return &fakeTicker{c: make(chan time.Time)} }
func (f *fakeTicker) C() <-chan time.Time { return f.c }
func (f *fakeTicker) Stop()               {}

// tick sends one tick; it returns once the dispatcher took it.
func (f *fakeTicker) tick(t *testing.T) {
	t.Helper()
	select {
	case f.c <- time.Now():
	case <-time.After(30 * time.Second):
		t.Fatal("dispatcher did not take the tick")
	}
}

// recorder is an Observer keeping every event.
type recorder struct {
	mu     sync.Mutex
	events []string
	chunks []Chunk
	infos  []Info
}

func (r *recorder) add(kind string, in Info) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, kind+" "+in.ProcessID)
	r.infos = append(r.infos, in)
}
func (r *recorder) Started(in Info) { r.add("started", in) }
func (r *recorder) Exited(in Info)  { r.add("exited", in) }
func (r *recorder) Updated(in Info) { r.add("updated", in) }
func (r *recorder) Output(c Chunk) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "output "+c.ProcessID)
	r.infos = append(r.infos, Info{}) // infos[i] goes with events[i]
	r.chunks = append(r.chunks, c)
}

func (r *recorder) snapshot() ([]string, []Chunk, []Info) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.events...), append([]Chunk(nil), r.chunks...), append([]Info(nil), r.infos...)
}

func newReg(t *testing.T, o Options) *Registry {
	t.Helper()
	if o.KillGrace == 0 {
		o.KillGrace = 300 * time.Millisecond
	}
	if o.Shell == "" {
		o.Shell = "/bin/bash"
	}
	if o.Supervisor == "" && !o.direct {
		supervised(t, &o)
	}
	r := NewRegistry(o)
	t.Cleanup(r.Close)
	return r
}

// waitFor polls cond until it holds or d passes.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// liveInGroup lists, through /proc, the live processes of process group pgid.
func liveInGroup(pgid int) []int { return members(group{pgid: pgid}) }

// pidAlive tells through /proc whether pid exists and is not a zombie.
func pidAlive(pid int) bool {
	st, ok := readStat(pid)
	return ok && !st.zombie
}

func waitEnded(t *testing.T, r *Registry, id string) Info {
	t.Helper()
	var in Info
	waitFor(t, 10*time.Second, "process "+id+" to end", func() bool {
		in, _ = r.Info(id)
		return in.Status != StatusRunning
	})
	return in
}

func logsOf(t *testing.T, r *Registry, id string) string {
	t.Helper()
	l, err := r.Logs(id, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	return string(l.Content)
}

func waitLogs(t *testing.T, r *Registry, id, want string, n int) {
	t.Helper()
	waitFor(t, 10*time.Second, fmt.Sprintf("%d× %q in the output of %s", n, want, id), func() bool {
		return strings.Count(logsOf(t, r, id), want) >= n
	})
}
