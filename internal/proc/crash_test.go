//go:build linux

package proc

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gatehouse/internal/supervisor/suptest"
)

// A tree that ignores HUP, TERM and INT: the shell, a child that
// double-forks (its parent exits at once) into one process that stays in the
// group and one that makes a session of its own.
const stubbornTree = `trap '' HUP TERM INT
( setsid sh -c 'trap "" HUP TERM INT; sleep 300' & sleep 300 & )
sleep 300`

// startHost runs crashhost with args and the marker, and waits for it to
// say ready and for want processes to carry the marker.
func startHost(t *testing.T, mark string, want int, args ...string) *exec.Cmd {
	t.Helper()
	bin := os.Getenv("GATEHOUSE_TEST_CRASHHOST") // built ahead (tests run as another user)
	if bin == "" {
		bin = filepath.Join(t.TempDir(), "crashhost")
		if err := suptest.Build(bin, "gatehouse/internal/proc/crashhost"); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(bin, append(args, "-mark", mark)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		killMarked(mark) // whatever a failed test left
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if !strings.HasPrefix(line, "ready") {
		t.Fatalf("host did not start: %q %v", line, err)
	}
	waitFor(t, 20*time.Second, fmt.Sprintf("%d processes of the tree", want), func() bool { return len(marked(mark)) >= want })
	return cmd
}

// marked lists the live processes whose environment holds mark.
func marked(mark string) []int {
	var out []int
	for _, st := range scanProcs() {
		if st.zombie {
			continue
		}
		env, err := os.ReadFile("/proc/" + strconv.Itoa(st.pid) + "/environ")
		// (the first variable has no NUL before it: bash orders a small
		// environment as it likes)
		if err == nil && bytes.Contains(append([]byte{0}, env...), []byte("\x00"+mark+"\x00")) {
			out = append(out, st.pid)
		}
	}
	return out
}

func killMarked(mark string) {
	for _, pid := range marked(mark) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

func newMark(t *testing.T) string {
	return fmt.Sprintf("GH_CRASH_MARK=%s-%d", t.Name(), time.Now().UnixNano())
}

// waitNoneMarked polls /proc until no process carries mark.
func waitNoneMarked(t *testing.T, mark string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for len(marked(mark)) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("processes of the tree still alive: %v", describe(marked(mark)))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func describe(pids []int) []string {
	var out []string
	for _, pid := range pids {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
		out = append(out, fmt.Sprintf("%d %s", pid, bytes.ReplaceAll(b, []byte{0}, []byte{' '})))
	}
	return out
}

// The app dies by SIGKILL: its supervisors see their lifeline end and kill
// every process of their commands, the ones that double-forked, left the
// session and ignore SIGTERM included.
func TestSupervisorKillsTreeWhenHostIsKilled(t *testing.T) {
	mark := newMark(t)
	// helper, the shell (exec'd into its last sleep), setsid sh, its sleep,
	// the grouped sleep
	host := startHost(t, mark, 5, "-supervisor", suptest.Binary(t), "-cmd", stubbornTree)
	// The spare helper started for the next command goes too.
	var spare []int
	waitFor(t, 20*time.Second, "a spare helper", func() bool { spare = sparesOf(host.Process.Pid); return len(spare) > 0 })
	host.Process.Signal(syscall.SIGKILL)
	host.Wait()
	waitNoneMarked(t, mark)
	waitFor(t, 30*time.Second, "the spare helper to end", func() bool { return !pidAlive(spare[0]) })
}

// sparesOf lists the spare helpers whose parent is pid.
func sparesOf(pid int) []int {
	var out []int
	for _, st := range scanProcs() {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(st.pid) + "/cmdline")
		if !st.zombie && bytes.HasSuffix(b, []byte("\x00-spare\x00")) && ppidOf(st.pid) == pid {
			out = append(out, st.pid)
		}
	}
	return out
}

func ppidOf(pid int) int {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:]))
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// Without the helper, a crash leaves the group running; the ledger the
// crashed run kept lets the next run find it and stop it.
func TestRestartFindsAndStopsLeftoverGroup(t *testing.T) {
	mark := newMark(t)
	dir := t.TempDir()
	host := startHost(t, mark, 2, "-ledger", dir, "-cmd", "trap '' HUP TERM INT; (sleep 300 &); sleep 300")
	host.Process.Signal(syscall.SIGKILL)
	host.Wait()
	// The tree may still be forking when the host dies (a subshell that has
	// not yet started its sleep): wait until the group holds both sleeps.
	var left []Leftover
	waitFor(t, 20*time.Second, "the leftover group with its 2 processes", func() bool {
		var err error
		left, err = FindLeftovers(dir)
		if err != nil {
			t.Fatal(err)
		}
		return len(left) == 1 && strings.Contains(left[0].Command, "sleep 300") && len(left[0].PIDs) >= 2
	})
	if err := StopLeftover(dir, left[0].ID, 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	waitNoneMarked(t, mark)
	if left, _ := FindLeftovers(dir); len(left) != 0 {
		t.Fatalf("after Stop, leftovers = %+v", left)
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(names) != 0 {
		t.Fatalf("ledger files left: %v", names)
	}
}

// A run that exits cleanly leaves no ledger, and a running run's own
// groups are never offered as leftovers.
func TestLedgerOfCleanRunAndOfLiveRun(t *testing.T) {
	dir := t.TempDir()
	l, err := OpenLedger(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := newReg(t, Options{Ledger: l, PortScan: -1})
	if _, err := r.Start("sleep 300", t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if left, _ := FindLeftovers(dir); len(left) != 0 {
		t.Fatalf("a live run's group offered as leftover: %+v", left)
	}
	r.Close()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if names, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(names) != 0 {
		t.Fatalf("ledger files after a clean exit: %v", names)
	}
}

// Stop reaches the whole tree under the helper: the double-forked process
// that left the session, and every process ignoring SIGTERM.
func TestStopKillsWholeSupervisedTree(t *testing.T) {
	mark := newMark(t)
	r := newReg(t, Options{PortScan: -1, Env: func() []string { return append(os.Environ(), mark) }})
	in, err := r.Start(stubbornTree, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { killMarked(mark) })
	waitFor(t, 20*time.Second, "the tree", func() bool { return len(marked(mark)) >= 5 })
	out, err := r.Stop(in.ProcessID)
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != StatusStopped {
		t.Fatalf("status = %s, want stopped", out.Status)
	}
	waitNoneMarked(t, mark)
}

// A command the helper cannot start fails with the helper's reason.
func TestSupervisorReportsAShellItCannotRun(t *testing.T) {
	r := newReg(t, Options{Shell: "/nonexistent/shell", PortScan: -1})
	_, err := r.Exec(context.Background(), ExecSpec{Command: "true", Dir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "cannot run /nonexistent/shell") {
		t.Fatalf("err = %v", err)
	}
	if _, err := r.Start("true", t.TempDir()); err == nil {
		t.Fatal("Start with a missing shell succeeded")
	}
}

// Commands go to the spare helper started ahead, with their own folder,
// environment and output; one too large for a spare's request gets a helper
// of its own.
func TestSpareHelperRunsTheNextCommands(t *testing.T) {
	r := newReg(t, Options{PortScan: -1, Env: func() []string { return append(os.Environ(), "GH_SPARE_TEST=yes") }})
	for i := range 3 {
		dir := t.TempDir()
		var out strings.Builder
		res, err := r.Exec(context.Background(), ExecSpec{Command: "pwd; echo $GH_SPARE_TEST; exit " + strconv.Itoa(i), Dir: dir, Stdout: &out})
		if err != nil || res.ExitCode != i || out.String() != dir+"\nyes\n" {
			t.Fatalf("run %d: %q exit %d %v", i, out.String(), res.ExitCode, err)
		}
	}
	big := ": " + strings.Repeat("x", 100<<10) + "; echo big"
	var out strings.Builder
	if res, err := r.Exec(context.Background(), ExecSpec{Command: big, Dir: t.TempDir(), Stdout: &out}); err != nil || res.ExitCode != 0 || out.String() != "big\n" {
		t.Fatalf("large command: %q %+v %v", out.String(), res, err)
	}
	in, err := r.Start("echo started; sleep 300", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	waitLogs(t, r, in.ProcessID, "started", 1)
	if _, err := r.Stop(in.ProcessID); err != nil {
		t.Fatal(err)
	}
}
