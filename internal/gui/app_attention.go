package gui

import (
	"context"
	"errors"
	"sync/atomic"
	"time"

	"gatehouse/internal/desktop"
	"gatehouse/internal/protocol"
)

// attention is the window's "waiting for you" state, which the page sets
// while an approval dialog waits and the window is not focused. The zero
// value is ready: not waiting, notifications through D-Bus.
type attention struct {
	waiting atomic.Bool
	// notifier sends the desktop notification; nil: desktop.DBusNotifier.
	notifier desktop.Notifier
}

// title marks the window title while the app waits for the user.
func (at *attention) title(base string) string {
	if at.waiting.Load() {
		return "● " + base + " (waiting for you)"
	}
	return base
}

func (at *attention) notify(ctx context.Context, summary, body string) error {
	n := at.notifier
	if n == nil {
		n = desktop.DBusNotifier{AppName: "Gatehouse"}
	}
	return n.Notify(ctx, summary, body)
}

// SetAttention is how the page says that an approval dialog waits while the
// window is not focused (true), or no longer does (false). The window title
// carries a "waiting" badge meanwhile, and the start of a wait sends a
// desktop notification; without a session bus there is none, quietly.
// Repeating the current state changes nothing.
func (a *App) SetAttention(waiting bool) {
	if a.attention.waiting.Swap(waiting) == waiting {
		return
	}
	a.updateTitle()
	if !waiting {
		return
	}
	body := "A tool call waits for your approval."
	if s := a.currentSession(); s != nil {
		if p := gui(s).Pending(); len(p) > 0 {
			body = p[0].Preview.Summary
		}
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := a.attention.notify(ctx, "Gatehouse is waiting for you", body); err != nil && !errors.Is(err, desktop.ErrNoSessionBus) {
			a.log.Debug("desktop notification failed", "err", err)
		}
	}()
}

// notifyBackground sends the desktop notification for an approval request
// of a tab that is not shown, naming its session: the page shows a badge on
// that tab, and the dialog once the tab is shown.
func (a *App) notifyBackground(sessionID string, p protocol.ApprovalRequestedPayload) {
	name := a.tabName(sessionID)
	if name == "" {
		return // closed meanwhile
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	body := p.Tool + ": " + p.Preview.Summary
	if err := a.attention.notify(ctx, "Session "+name+" is waiting for you", body); err != nil && !errors.Is(err, desktop.ErrNoSessionBus) {
		a.log.Debug("desktop notification failed", "err", err)
	}
}
