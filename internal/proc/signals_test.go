//go:build linux

package proc

import (
	"os"
	"syscall"
	"testing"
	"time"
)

func TestHandleSignalsClosesOnSIGTERM(t *testing.T) {
	r := newReg(t, Options{PortScan: -1})
	in, err := r.Start("sleep 30", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan os.Signal, 1)
	stop := HandleSignals(func(sig os.Signal) { r.CloseAll(); got <- sig })
	defer stop()
	syscall.Kill(os.Getpid(), syscall.SIGTERM)
	select {
	case sig := <-got:
		if sig != syscall.SIGTERM || ExitCode(sig) != 143 {
			t.Fatalf("got %v", sig)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("shutdown not called")
	}
	if left := liveInGroup(in.PID); len(left) > 0 {
		t.Fatalf("left: %v", left)
	}
}
