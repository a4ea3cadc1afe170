package gui

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"gatehouse/internal/desktop"
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

func TestExitAlertsFollowTheWindowFocus(t *testing.T) {
	fake := fakeNotifier{sent: make(chan [2]string, 4)}
	a := &App{alerts: desktop.NewExitAlerts(fake, slog.New(slog.DiscardHandler))}
	failed := exitInfo(protocol.StatusExited, 3, false)

	if a.alerts.ProcessExited(failed) {
		t.Fatal("notified while the window is focused (its initial state)")
	}
	a.SetWindowFocused(false)
	if !a.alerts.ProcessExited(failed) {
		t.Fatal("no notification for a failure while the window is unfocused")
	}
	select {
	case got := <-fake.sent:
		if got[0] != "Process failed (exit 3)" || got[1] != "npm test" {
			t.Fatalf("notification = %q", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the notifier was not called")
	}
	a.SetWindowFocused(true)
	if a.alerts.ProcessExited(failed) {
		t.Fatal("notified after the window got its focus back")
	}
	select {
	case got := <-fake.sent:
		t.Fatalf("unexpected notification %q", got)
	default:
	}
}
