package gui

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"gatehouse/internal/desktop"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/tools/steer"
)

// attention is the window's "waiting for you" state, which the page sets
// while an approval dialog waits and the window is not focused. The zero
// value is ready: not waiting, notifications through D-Bus.
type attention struct {
	waiting atomic.Bool
	// blurred: the window lost its focus (SetWindowFocused); meanwhile a
	// tab not shown that waits marks the title too.
	blurred atomic.Bool
	titleMu sync.Mutex // one title update at a time
	// notifier sends the desktop notification; nil: desktop.DBusNotifier.
	notifier desktop.Notifier
}

// title marks the window title while the app waits for the user: the shown
// tab (the page says so), or, while the window is not focused, elsewhere
// tabs not shown.
func (at *attention) title(base string, elsewhere int) string {
	if at.waiting.Load() || elsewhere > 0 && at.blurred.Load() {
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

// backgroundEvent is deliver's for an event of a tab not shown: an
// approval request (its subagents' too) notifies, and the title's mark
// follows what waits. It runs under the bus's lock, so it takes none.
func (a *App) backgroundEvent(e protocol.Event) {
	switch p := e.Payload.(type) {
	case protocol.ApprovalRequestedPayload:
		tool := p.Tool
		if p.Agent != "" {
			tool = p.Agent + " › " + tool
		}
		go a.notifyBackground(e.SessionID, tool+": "+p.Preview.Summary)
		go a.updateTitle()
	case protocol.ApprovalResolvedPayload:
		go a.updateTitle()
	}
}

// questionChanged is told by session sessionID's ask_user broker (its
// subagents ask through it too) when a question starts or stops waiting:
// in a tab not shown, the start notifies as an approval does.
func (a *App) questionChanged(sessionID string, q steer.Question, waiting bool) {
	if bg := a.background.Load(); bg == nil || !(*bg)[sessionID] {
		return
	}
	if waiting {
		go a.notifyBackground(sessionID, "ask_user: "+q.Question)
	}
	go a.updateTitle()
}

// waitingOf counts what session s waits for the user on: approvals (its
// subagents' among them) and ask_user questions.
func waitingOf(s *runtime.Session) int {
	n := len(gui(s).Pending())
	if b, ok := s.Asker().(*steer.Broker); ok {
		n += len(b.Pending())
	}
	return n
}

// waitingElsewhere counts what the tabs not shown wait for the user on.
func (a *App) waitingElsewhere() int {
	tabs, shown := a.openTabs()
	n := 0
	for i, t := range tabs {
		if i != shown && t.sess != nil {
			n += waitingOf(t.sess)
		}
	}
	return n
}

// notifyBackground sends the desktop notification for what a tab that is
// not shown waits on (body), naming its session: the page shows a badge on
// that tab, and the dialog once the tab is shown.
func (a *App) notifyBackground(sessionID, body string) {
	name := a.tabName(sessionID)
	if name == "" {
		return // closed meanwhile
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.attention.notify(ctx, "Session "+name+" is waiting for you", body); err != nil && !errors.Is(err, desktop.ErrNoSessionBus) {
		a.log.Debug("desktop notification failed", "err", err)
	}
}
