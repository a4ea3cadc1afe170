package desktop

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync/atomic"
	"time"

	"gatehouse/internal/protocol"
)

// ExitAlerts raises a desktop notification when a process exits with a
// non-zero code while the window is not focused: the user is elsewhere and
// the panel's red flag would go unseen. Safe for concurrent use.
type ExitAlerts struct {
	// unfocused is the page's last report; the window starts focused.
	unfocused atomic.Bool
	notifier  Notifier
	log       *slog.Logger
}

// NewExitAlerts notifies through n, logging failures to log.
func NewExitAlerts(n Notifier, log *slog.Logger) *ExitAlerts {
	return &ExitAlerts{notifier: n, log: log}
}

// SetFocused records whether the window has the focus.
func (x *ExitAlerts) SetFocused(focused bool) { x.unfocused.Store(!focused) }

// FailedWhileAway decides whether an exit deserves a notification: a process
// that ended on its own (not stopped by the user or the app) with a non-zero
// code, in this run of the app, while the window is unfocused.
func FailedWhileAway(focused bool, i protocol.ProcessInfo) bool {
	return !focused && !i.Restored && i.Status == protocol.StatusExited && i.ExitCode != nil && *i.ExitCode != 0
}

// ProcessExited notifies when FailedWhileAway says so, without waiting for
// the desktop; it reports whether it sent.
func (x *ExitAlerts) ProcessExited(i protocol.ProcessInfo) bool {
	if x == nil || !FailedWhileAway(!x.unfocused.Load(), i) {
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
		if err != nil && !errors.Is(err, ErrNoSessionBus) {
			x.log.Debug("desktop notification failed", "err", err)
		}
	}()
	return true
}
