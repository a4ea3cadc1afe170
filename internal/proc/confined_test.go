//go:build linux

package proc

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/suptest"
)

// killsItsSupervisor tries to stop, then kill, the process that started
// it (the helper, unconfined), then stays as a stubborn tree.
const killsItsSupervisor = `kill -STOP $PPID; kill -KILL $PPID; ` + stubbornTree

// confinedLayers runs f with every layer and with Landlock alone, naming
// the mode as crashhost's -confine takes it.
func confinedLayers(t *testing.T, f func(t *testing.T, mode string, l sandbox.Layers)) {
	if sandbox.ABI() < 1 {
		t.Skip("this kernel has no Landlock")
	}
	l := sandbox.Detect()
	t.Run("all-layers", func(t *testing.T) {
		if !l.Namespaces() {
			t.Skip(l.NoNamespaces)
		}
		f(t, "all", l)
	})
	ll := l
	ll.Bwrap = ""
	t.Run("landlock-only", func(t *testing.T) { f(t, sandbox.LandlockOnly, ll) })
}

// A confined command that stops or kills its supervisor cannot: Stop still
// ends its whole tree.
func TestConfinedCommandCannotStopItsSupervisor(t *testing.T) {
	confinedLayers(t, func(t *testing.T, _ string, l sandbox.Layers) {
		mark := newMark(t)
		dir := t.TempDir()
		p := sandbox.Build(sandbox.Spec{Workspace: dir, Env: os.Environ(), Layers: l})
		r := newReg(t, Options{PortScan: -1, Env: func() []string { return append(os.Environ(), mark) },
			Supervisor: suptest.Binary(t), Sandbox: func(string) *sandbox.Policy { return &p }})
		in, err := r.Start(killsItsSupervisor, dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { killMarked(mark) })
		waitFor(t, 20*time.Second, "the tree", func() bool { return len(marked(mark)) >= 5 })
		for _, h := range helpersOf(os.Getpid()) {
			if st := stateOf(h); st == "T" || st == "" {
				t.Fatalf("the supervisor helper %d was stopped or killed by its command (state %q)", h, st)
			}
		}
		out, err := r.Stop(in.ProcessID)
		if err != nil {
			t.Fatal(err)
		}
		if out.Status != StatusStopped {
			t.Fatalf("status = %s, want stopped", out.Status)
		}
		waitNoneMarked(t, mark)
	})
}

// The same command under a host that is then killed leaves nothing.
func TestConfinedTreeEndsWhenHostIsKilled(t *testing.T) {
	confinedLayers(t, func(t *testing.T, mode string, _ sandbox.Layers) {
		mark := newMark(t)
		host := startHost(t, mark, 5, "-supervisor", suptest.Binary(t), "-confine", mode, "-dir", t.TempDir(), "-cmd", killsItsSupervisor)
		below := descendantsOf(host.Process.Pid) // helpers, the spare, a holder and its bubblewrap
		host.Process.Signal(syscall.SIGKILL)
		host.Wait()
		waitNoneMarked(t, mark)
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			var left []int
			for _, pid := range below {
				if s := stateOf(pid); s != "" && s != "Z" {
					left = append(left, pid)
				}
			}
			if len(left) == 0 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("processes the host started are still alive: %v", describe(left))
			}
		}
	})
}

// descendantsOf lists the processes below pid.
func descendantsOf(pid int) []int {
	var out []int
	queue := []int{pid}
	procs := scanProcs()
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, st := range procs {
			if ppidOf(st.pid) == p {
				out = append(out, st.pid)
				queue = append(queue, st.pid)
			}
		}
	}
	return out
}

// helpersOf lists the supervisor helpers running a command (not spares)
// whose parent is pid.
func helpersOf(pid int) []int {
	var out []int
	spares := sparesOf(pid)
	for _, st := range scanProcs() {
		if st.zombie || ppidOf(st.pid) != pid || slices.Contains(spares, st.pid) {
			continue
		}
		if exe, _ := os.Readlink("/proc/" + strconv.Itoa(st.pid) + "/exe"); filepath.Base(exe) == "gatehouse-supervisor" {
			out = append(out, st.pid)
		}
	}
	return out
}

// stateOf is the state letter of a process, "" when it is gone.
func stateOf(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	return f[0]
}
