package gui

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"gatehouse/internal/desktop"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
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
	waits     map[waitKey]wait // what waits, in any tab
	told      bool             // this stretch of waiting notified
}

// wait is one thing waiting: its summary, for the notification, and
// whether it came in the tab shown (a background tab's notifies apart,
// naming its session).
type wait struct {
	summary string
	shown   bool
}

// waitKey names one thing waiting: an approval or a question, in its turn.
type waitKey struct{ session, turn, id string }

// observe folds e into what waits, in every tab (shown: the event is of the
// tab shown); it reports whether that changed.
func (at *attention) observe(e protocol.Event, shown bool) bool {
	at.mu.Lock()
	defer at.mu.Unlock()
	n := len(at.waits)
	switch p := e.Payload.(type) {
	case protocol.ApprovalRequestedPayload:
		at.add(waitKey{e.SessionID, e.TurnID, "approval " + p.ApprovalID}, wait{p.Preview.Summary, shown})
	case protocol.ApprovalResolvedPayload:
		delete(at.waits, waitKey{e.SessionID, e.TurnID, "approval " + p.ApprovalID})
	case protocol.ToolStartedPayload:
		if p.Tool == steer.AskUserName {
			at.add(waitKey{e.SessionID, e.TurnID, "question " + p.CallID}, wait{"The agent asks you a question.", shown})
		}
	case protocol.ToolFinishedPayload:
		delete(at.waits, waitKey{e.SessionID, e.TurnID, "question " + p.CallID})
	case protocol.QuestionAskedPayload:
		at.add(waitKey{e.SessionID, e.TurnID, "server question " + p.QuestionID}, wait{"MCP server " + p.Server + " asks you a question.", shown})
	case protocol.QuestionResolvedPayload:
		delete(at.waits, waitKey{e.SessionID, e.TurnID, "server question " + p.QuestionID})
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

func (at *attention) add(k waitKey, w wait) {
	if at.waits == nil {
		at.waits = map[waitKey]wait{}
	}
	at.waits[k] = w
}

// setFocused records the window's focus; it reports whether that changed.
func (at *attention) setFocused(focused bool) bool {
	at.mu.Lock()
	defer at.mu.Unlock()
	changed := at.unfocused == focused
	at.unfocused = !focused
	return changed
}

// update sets waiting from what waits (in any tab) and the focus. It
// reports whether that changed, and whether to notify: once in a stretch of
// waiting, when something waits in the tab shown (a background tab's
// notified already, naming its session), with a summary of it.
func (at *attention) update() (changed, notify bool, summary string) {
	at.mu.Lock()
	defer at.mu.Unlock()
	waiting := at.unfocused && len(at.waits) > 0
	changed = at.waiting.Swap(waiting) != waiting
	if !waiting {
		at.told = false
		return changed, false, ""
	}
	if at.told {
		return changed, false, ""
	}
	for _, w := range at.waits {
		if w.shown {
			notify = true
			if summary = w.summary; summary != "" {
				break
			}
		}
	}
	at.told = notify
	return changed, notify, summary
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
	changed, notify, body := a.attention.update()
	if changed {
		a.updateTitle()
	}
	if !notify {
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

// backgroundWait is the notification's body for an event of a tab not
// shown that waits for the user: an approval request (a subagent's names
// it) or an ask_user question; "" for any other event.
func backgroundWait(e protocol.Event) string {
	switch p := e.Payload.(type) {
	case protocol.ApprovalRequestedPayload:
		tool := p.Tool
		if p.Agent != "" {
			tool = p.Agent + " › " + tool
		}
		return tool + ": " + p.Preview.Summary
	case protocol.ToolStartedPayload:
		if p.Tool == steer.AskUserName {
			var q steer.Question
			if json.Unmarshal(p.Args, &q) == nil && q.Question != "" {
				return "The agent asks: " + q.Question
			}
			return "The agent asks you a question."
		}
	case protocol.QuestionAskedPayload:
		return "MCP server " + p.Server + " asks: " + p.Message
	}
	return ""
}

// waitingOf counts what session s waits for the user on: approvals (its
// subagents' among them) and ask_user questions.
func waitingOf(s *runtime.Session) int {
	n := len(gui(s).Pending())
	if b, ok := s.Asker().(*steer.Broker); ok {
		n += len(b.Pending()) + len(b.PendingForms())
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
