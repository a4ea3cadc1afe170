package main

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"gatehouse/internal/protocol"
)

type fakeNotifier struct{ sent chan [2]string }

func (f fakeNotifier) Notify(_ context.Context, summary, body string) error {
	f.sent <- [2]string{summary, body}
	return nil
}

func exitInfo(status protocol.ProcessStatus, code int, restored bool) protocol.ProcessInfo {
	return protocol.ProcessInfo{ProcessID: "p1", Command: "npm test", Status: status, ExitCode: &code, Restored: restored}
}

func TestFailedWhileAway(t *testing.T) {
	cases := []struct {
		name    string
		focused bool
		info    protocol.ProcessInfo
		want    bool
	}{
		{"non-zero exit while away", false, exitInfo(protocol.StatusExited, 1, false), true},
		{"non-zero exit while focused", true, exitInfo(protocol.StatusExited, 1, false), false},
		{"zero exit while away", false, exitInfo(protocol.StatusExited, 0, false), false},
		{"stopped by the user while away", false, exitInfo(protocol.StatusStopped, 143, false), false},
		{"restored from an earlier run", false, exitInfo(protocol.StatusExited, 2, true), false},
		{"no exit code", false, protocol.ProcessInfo{Status: protocol.StatusExited}, false},
	}
	for _, c := range cases {
		if got := failedWhileAway(c.focused, c.info); got != c.want {
			t.Errorf("%s: failedWhileAway = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestExitAlertsFollowTheWindowFocus(t *testing.T) {
	fake := fakeNotifier{sent: make(chan [2]string, 4)}
	a := &App{alerts: newExitAlerts(fake, slog.New(slog.DiscardHandler))}
	failed := exitInfo(protocol.StatusExited, 3, false)

	if a.alerts.processExited(failed) {
		t.Fatal("notified while the window is focused (its initial state)")
	}
	a.SetWindowFocused(false)
	if !a.alerts.processExited(failed) {
		t.Fatal("no notification for a failure while the window is unfocused")
	}
	select {
	case got := <-fake.sent:
		if got[0] != "Process failed (exit 3)" || got[1] != "npm test" {
			t.Fatalf("notification = %q", got)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the notifier was not called")
	}
	a.SetWindowFocused(true)
	if a.alerts.processExited(failed) {
		t.Fatal("notified after the window got its focus back")
	}
	select {
	case got := <-fake.sent:
		t.Fatalf("unexpected notification %q", got)
	default:
	}
}
