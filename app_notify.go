package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"gatehouse/internal/desktop"
	"gatehouse/internal/protocol"
)

// exitAlerts raises a desktop notification when a process exits with a
// non-zero code while the window is not focused: the user is elsewhere and
// the panel's red flag would go unseen.
type exitAlerts struct {
	// unfocused is the page's last report; the window starts focused.
	unfocused atomic.Bool
	notifier  desktop.Notifier
	log       *slog.Logger
}

func newExitAlerts(n desktop.Notifier, log *slog.Logger) *exitAlerts {
	return &exitAlerts{notifier: n, log: log}
}

// failedWhileAway decides whether an exit deserves a notification: a process
// that ended on its own (not stopped by the user or the app) with a non-zero
// code, in this run of the app, while the window is unfocused.
func failedWhileAway(focused bool, i protocol.ProcessInfo) bool {
	return !focused && !i.Restored && i.Status == protocol.StatusExited && i.ExitCode != nil && *i.ExitCode != 0
}

// processExited notifies when failedWhileAway says so, without waiting for
// the desktop; it reports whether it sent.
func (x *exitAlerts) processExited(i protocol.ProcessInfo) bool {
	if x == nil || !failedWhileAway(!x.unfocused.Load(), i) {
		return false
	}
	cmd := i.Command
	if r := []rune(cmd); len(r) > 120 {
		cmd = string(r[:119]) + "…"
	}
	summary := fmt.Sprintf("Process failed (exit %d)", *i.ExitCode)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		err := x.notifier.Notify(ctx, summary, cmd)
		if err != nil && !errors.Is(err, desktop.ErrNoSessionBus) {
			x.log.Debug("desktop notification failed", "err", err)
		}
	}()
	return true
}

// SetWindowFocused is how the page reports that the window gained or lost
// focus (it listens to the window's focus and blur events).
func (a *App) SetWindowFocused(focused bool) {
	if a.alerts == nil {
		return
	}
	a.alerts.unfocused.Store(!focused)
}
