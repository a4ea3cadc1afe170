package gui

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"gatehouse/internal/desktop"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools/steer"
)

// attention is the window's "waiting for you" state: something waits for
// the user (an approval request, an ask_user question) while the window is
// not focused. The backend's own events say what waits, and the page only
// reports the focus (SetWindowFocused), so the state has one source. The
// zero value is ready: focused, nothing waiting, notifications through D-Bus.
type attention struct {
	waiting atomic.Bool
	// notifier sends the desktop notification; nil: desktop.DBusNotifier.
	notifier desktop.Notifier

	mu        sync.Mutex
	unfocused bool
	waits     map[waitKey]string // what waits → its summary, for the notification
}

// waitKey names one thing waiting: an approval or a question, in its turn.
type waitKey struct{ session, turn, id string }

// observe folds e into what waits (a new wait only when shown: the event is
// of the tab shown); it reports whether that changed.
func (at *attention) observe(e protocol.Event, shown bool) bool {
	at.mu.Lock()
	defer at.mu.Unlock()
	n := len(at.waits)
	switch p := e.Payload.(type) {
	case protocol.ApprovalRequestedPayload:
		if !shown {
			return false
		}
		at.add(waitKey{e.SessionID, e.TurnID, "approval " + p.ApprovalID}, p.Preview.Summary)
	case protocol.ApprovalResolvedPayload:
		delete(at.waits, waitKey{e.SessionID, e.TurnID, "approval " + p.ApprovalID})
	case protocol.ToolStartedPayload:
		if p.Tool == steer.AskUserName && shown {
			at.add(waitKey{e.SessionID, e.TurnID, "question " + p.CallID}, "The agent asks you a question.")
		}
	case protocol.ToolFinishedPayload:
		delete(at.waits, waitKey{e.SessionID, e.TurnID, "question " + p.CallID})
	case protocol.TurnStoppedPayload:
		for k := range at.waits { // nothing of a stopped turn waits
			if k.session == e.SessionID && k.turn == e.TurnID {
				delete(at.waits, k)
			}
		}
	default:
		return false
	}
	return len(at.waits) != n
}

func (at *attention) add(k waitKey, summary string) {
	if at.waits == nil {
		at.waits = map[waitKey]string{}
	}
	at.waits[k] = summary
}

// setFocused records the window's focus; it reports whether that changed.
func (at *attention) setFocused(focused bool) bool {
	at.mu.Lock()
	defer at.mu.Unlock()
	changed := at.unfocused == focused
	at.unfocused = !focused
	return changed
}

// update sets waiting from what waits and the focus; it reports whether
// that changed, to what, and a summary of one waiting thing.
func (at *attention) update() (changed, waiting bool, summary string) {
	at.mu.Lock()
	defer at.mu.Unlock()
	waiting = at.unfocused && len(at.waits) > 0
	if at.waiting.Swap(waiting) == waiting {
		return false, waiting, ""
	}
	for _, s := range at.waits {
		if s != "" {
			summary = s
			break
		}
	}
	return true, waiting, summary
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

// attend brings the title and the notification in line with what waits
// and the focus: the title carries a "waiting" badge while something waits
// unfocused, and the start of a wait sends a desktop notification; without a
// session bus there is none, quietly.
func (a *App) attend() {
	changed, waiting, body := a.attention.update()
	if !changed {
		return
	}
	a.updateTitle()
	if !waiting {
		return
	}
	if body == "" {
		body = "A tool call waits for your approval."
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
