//go:build linux

package proc

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestStartLogsAndExitCode(t *testing.T) {
	r := newReg(t, Options{})
	in, err := r.Start("echo hello from $PWD; exit 3", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if in.ProcessID != "p1" || in.PID <= 0 || in.Status != StatusRunning {
		t.Fatalf("start info %+v", in)
	}
	in = waitEnded(t, r, "p1")
	if in.Status != StatusExited || in.ExitCode == nil || *in.ExitCode != 3 || in.EndedAt == nil {
		t.Fatalf("ended info %+v", in)
	}
	if got := logsOf(t, r, "p1"); !strings.Contains(got, "hello from "+in.Cwd) {
		t.Fatalf("logs %q", got)
	}
	if _, err := r.Write("p1", []byte("x")); err == nil || !strings.Contains(err.Error(), "not running") {
		t.Fatalf("write to ended process: %v", err)
	}
}

func TestUnknownProcessNamesTheID(t *testing.T) {
	r := newReg(t, Options{})
	_, err := r.Info("p42")
	if !IsUnknownProcess(err) || !strings.Contains(err.Error(), `"p42"`) {
		t.Fatalf("got %v", err)
	}
	if _, err := r.Stop("nope"); !IsUnknownProcess(err) {
		t.Fatalf("stop: got %v", err)
	}
}

func TestWriteReachesStdin(t *testing.T) {
	r := newReg(t, Options{})
	in, err := r.Start("cat", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	n, err := r.Write(in.ProcessID, []byte("ping\n"))
	if err != nil || n != 5 {
		t.Fatalf("write: %d %v", n, err)
	}
	// Once echoed by the terminal, once printed back by cat.
	waitLogs(t, r, in.ProcessID, "ping", 2)
	if _, err := r.Write(in.ProcessID, []byte("\x04")); err != nil {
		t.Fatal(err)
	}
	in = waitEnded(t, r, in.ProcessID)
	if in.Status != StatusExited || *in.ExitCode != 0 {
		t.Fatalf("after EOF: %+v code %d, logs %q", in, *in.ExitCode, logsOf(t, r, in.ProcessID))
	}
}

func TestWriteCtrlCInterrupts(t *testing.T) {
	r := newReg(t, Options{})
	in, err := r.Start("echo ready; sleep 30", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	waitLogs(t, r, in.ProcessID, "ready", 1)
	if _, err := r.Write(in.ProcessID, []byte("\x03")); err != nil {
		t.Fatal(err)
	}
	in = waitEnded(t, r, in.ProcessID)
	if *in.ExitCode != 130 {
		t.Fatalf("after ^C: %+v", in)
	}
}

// forkingTree starts a group of several processes, one of which ignores
// SIGTERM, and returns its pgid once they all run.
func forkingTree(t *testing.T, r *Registry) Info {
	t.Helper()
	in, err := r.Start(`sleep 60 & (trap '' TERM; sleep 61) & bash -c 'sleep 62 & sleep 63' & echo forked; wait`, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, "the tree to fork", func() bool { return len(liveInGroup(in.PID)) >= 5 })
	return in
}

func TestStopKillsForkingTree(t *testing.T) {
	r := newReg(t, Options{})
	in := forkingTree(t, r)
	out, err := r.Stop(in.ProcessID)
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != StatusStopped || out.ExitCode == nil {
		t.Fatalf("after stop: %+v", out)
	}
	if left := liveInGroup(in.PID); len(left) > 0 {
		t.Fatalf("processes of group %d left after stop: %v", in.PID, left)
	}
}

func TestCloseAllLeavesNoProcessOfItsGroups(t *testing.T) {
	r := newReg(t, Options{})
	tree := forkingTree(t, r)
	var out bytes.Buffer
	res, err := r.Exec(context.Background(), ExecSpec{Command: "sleep 30 & echo $!", Dir: t.TempDir(), Timeout: 10 * time.Second, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	bg, _ := strconv.Atoi(strings.TrimSpace(out.String()))
	if !pidAlive(bg) {
		t.Fatalf("background child %d of exec should still run", bg)
	}
	r.CloseAll()
	if left := liveInGroup(tree.PID); len(left) > 0 {
		t.Fatalf("group %d of a started process left: %v", tree.PID, left)
	}
	if left := liveInGroup(res.PID); len(left) > 0 || pidAlive(bg) {
		t.Fatalf("group %d of an exec left: %v", res.PID, left)
	}
	if in, _ := r.Info(tree.ProcessID); in.Status != StatusStopped {
		t.Fatalf("status after CloseAll: %+v", in)
	}
	if _, err := r.Start("true", t.TempDir()); err != ErrClosed {
		t.Fatalf("start after CloseAll: %v", err)
	}
}

func TestExecTimeoutKillsGrandchildIgnoringTERM(t *testing.T) {
	r := newReg(t, Options{})
	var out bytes.Buffer
	res, err := r.Exec(context.Background(), ExecSpec{
		Command: `sh -c 'trap "" TERM; exec sleep 60' & echo $!; wait`,
		Dir:     t.TempDir(), Timeout: 500 * time.Millisecond, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	gc, _ := strconv.Atoi(strings.TrimSpace(out.String()))
	if !res.TimedOut || gc == 0 {
		t.Fatalf("result %+v, output %q", res, out.String())
	}
	if pidAlive(gc) || len(liveInGroup(res.PID)) > 0 {
		t.Fatalf("grandchild %d survived the timeout", gc)
	}
}

func TestExecReturnsDespiteBackgroundChild(t *testing.T) {
	r := newReg(t, Options{})
	var out bytes.Buffer
	began := time.Now()
	res, err := r.Exec(context.Background(), ExecSpec{Command: "sleep 30 & echo started $!", Dir: t.TempDir(), Timeout: 20 * time.Second, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(out.String())
	if len(f) != 2 || f[0] != "started" || res.ExitCode != 0 || res.TimedOut {
		t.Fatalf("result %+v, output %q", res, out.String())
	}
	bg, _ := strconv.Atoi(f[1])
	if !pidAlive(bg) {
		t.Fatalf("exec returned after its background child %d ended (took %v)", bg, time.Since(began))
	}
}

func TestExecCancelKillsGroup(t *testing.T) {
	r := newReg(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	var out bytes.Buffer
	began := time.Now()
	res, err := r.Exec(ctx, ExecSpec{Command: "sleep 60 & echo $!; wait", Dir: t.TempDir(), Timeout: 30 * time.Second, Stdout: &out})
	if !errors.Is(err, context.Canceled) || time.Since(began) > 5*time.Second {
		t.Fatalf("err %v after %v", err, time.Since(began))
	}
	bg, _ := strconv.Atoi(strings.TrimSpace(out.String()))
	if bg == 0 || pidAlive(bg) || len(liveInGroup(res.PID)) > 0 {
		t.Fatalf("child %d of a cancelled exec survived", bg)
	}
}

func TestResizeReachesTheTerminal(t *testing.T) {
	r := newReg(t, Options{Rows: 30, Cols: 90})
	in, err := r.Start("stty size; read line; stty size; sleep 30", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	waitLogs(t, r, in.ProcessID, "30 90", 1)
	if err := r.Resize(in.ProcessID, 40, 100); err != nil {
		t.Fatal(err)
	}
	r.Write(in.ProcessID, []byte("\n"))
	waitLogs(t, r, in.ProcessID, "40 100", 1)
}

func TestKeyAndSettingsNeverReachProcesses(t *testing.T) {
	r := newReg(t, Options{Env: func() []string {
		return append(os.Environ(), "OPENAI_API_KEY=sk-secret", "GATEHOUSE_MODEL=x", "KEEP_ME=1")
	}})
	var out bytes.Buffer
	if _, err := r.Exec(context.Background(), ExecSpec{Command: "env", Dir: t.TempDir(), Timeout: 5 * time.Second, Stdout: &out}); err != nil {
		t.Fatal(err)
	}
	in, err := r.Start("env", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	waitEnded(t, r, in.ProcessID)
	for _, got := range []string{out.String(), logsOf(t, r, in.ProcessID)} {
		if strings.Contains(got, "sk-secret") || strings.Contains(got, "GATEHOUSE_") || !strings.Contains(got, "KEEP_ME=1") {
			t.Fatalf("environment of a process:\n%s", got)
		}
	}
}
