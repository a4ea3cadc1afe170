//go:build linux

package proc

import (
	"testing"
)

func TestSnapshotRestoreAndRestart(t *testing.T) {
	r := newReg(t, Options{PortScan: -1})
	dir := t.TempDir()
	in, err := r.Start("echo one; echo two", dir)
	if err != nil {
		t.Fatal(err)
	}
	waitEnded(t, r, in.ProcessID)
	saved := r.Snapshot(6) // of "one\r\ntwo\r\n"
	if len(saved) != 1 || string(saved[0].Output) != "\ntwo\r\n" || saved[0].Offset != 4 {
		t.Fatalf("snapshot %+v %q", saved, saved[0].Output)
	}
	saved[0].Info.Status = StatusRunning // as if the app died while it ran

	r2 := newReg(t, Options{PortScan: -1})
	added := r2.Restore(saved)
	if len(added) != 1 || !added[0].Restored || added[0].Status != StatusExited || added[0].ExitCode != nil {
		t.Fatalf("restored %+v", added)
	}
	l, err := r2.Logs("p1", 0, 100)
	if err != nil || string(l.Content) != "\ntwo\r\n" || l.Offset != 4 || !l.Truncated {
		t.Fatalf("logs of restored: %+v %q %v", l, l.Content, err)
	}
	if _, err := r2.Write("p1", []byte("x")); err == nil {
		t.Fatal("wrote to a restored process")
	}
	again, err := r2.Restart("p1", func(d string) (string, error) { return d, nil })
	if err != nil {
		t.Fatal(err)
	}
	if again.ProcessID != "p2" || again.Command != in.Command || again.Cwd != dir {
		t.Fatalf("restart %+v", again)
	}
	waitLogs(t, r2, "p2", "two", 1)
}
