package gui

import (
	"errors"
	"fmt"
	"slices"

	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/sessionhost"
)

// SessionInfo is a past session of the workspace, for the sessions list.
type SessionInfo struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// CreatedMs and UpdatedMs are Unix milliseconds.
	CreatedMs int64 `json:"createdMs"`
	UpdatedMs int64 `json:"updatedMs"`
	Turns     int   `json:"turns"`
	// Current marks the session open in the window.
	Current bool `json:"current"`
}

// ListSessions lists the saved sessions of the workspace, most recently
// updated first. A session without a finished item is not saved yet.
func (a *App) ListSessions() []SessionInfo {
	a.mu.Lock()
	ws, cur := a.workspace, a.sess
	a.mu.Unlock()
	out := []SessionInfo{}
	store := a.kit.Sessions()
	if store == nil || ws == "" {
		return out
	}
	list, err := store.List(ws)
	if err != nil {
		a.log.Warn("could not list sessions", "err", err)
		return out
	}
	for _, s := range list {
		out = append(out, SessionInfo{ID: s.ID, Title: s.Title, CreatedMs: s.CreatedMs, UpdatedMs: s.UpdatedMs,
			Turns: s.Turns, Current: cur != nil && cur.ID() == s.ID})
	}
	return out
}

// NewSession closes the open session (its turn is cancelled, its processes
// stopped and saved) and starts an empty one. The page draws the snapshot.
func (a *App) NewSession() protocol.Snapshot {
	a.switchMu.Lock()
	defer a.switchMu.Unlock()
	a.mu.Lock()
	old := a.sess
	a.setSessionLocked(nil)
	a.mu.Unlock()
	a.closeSession(old)
	a.resetChanges()
	if _, err := a.session(); err != nil {
		a.log.Info("no new session", "err", err)
	}
	return a.Snapshot()
}

// ResumeSession closes the open session and reopens saved session id: the
// transcript comes back for the page, the history for the model, and its
// processes as ended entries with their saved output. Nothing is published;
// the page draws the returned snapshot.
//
// A session open in another tab is shown instead: a session is never open
// twice.
func (a *App) ResumeSession(id string) (protocol.Snapshot, error) {
	if a.tabName(id) != "" {
		return a.SwitchTab(id)
	}
	a.switchMu.Lock()
	defer a.switchMu.Unlock()
	a.mu.Lock()
	ws, cur := a.workspace, a.sess
	a.mu.Unlock()
	store := a.kit.Sessions()
	if store == nil {
		return a.Snapshot(), errors.New("sessions are not saved in this run")
	}
	if ws == "" {
		return a.Snapshot(), errors.New("choose a workspace folder first")
	}
	if cur != nil && cur.ID() == id {
		return a.Snapshot(), nil
	}
	// Check it before closing the open one, so a bad id changes nothing.
	if err := store.Check(ws, id); err != nil {
		return a.Snapshot(), fmt.Errorf("cannot resume the session: %w", err)
	}
	a.mu.Lock()
	old := a.sess
	a.setSessionLocked(nil)
	a.mu.Unlock()
	a.closeSession(old)
	a.resetChanges()

	a.openMu.Lock()
	var s *sessionhost.Session
	var stray *runtime.Session
	var err error
	if a.workspaceRoot() != ws {
		err = errors.New("the workspace changed while the session was opening")
	} else if s, err = a.open(id, true); err == nil {
		a.mu.Lock()
		stray = a.sess // a message sent meanwhile started a session
		a.setSessionLocked(s.Session)
		a.mu.Unlock()
	}
	a.openMu.Unlock()
	if err != nil {
		return a.Snapshot(), fmt.Errorf("cannot resume the session: %w", err)
	}
	a.closeSession(stray)
	return a.Snapshot(), nil
}

// setSessionLocked makes s the open session (nil: none). a.mu is held.
func (a *App) setSessionLocked(s *runtime.Session) {
	a.sess = s
	a.setListenersLocked()
}

// closeSession closes s (nil: nothing). Until it has closed, s still gets
// the events it publishes (its turn's stop), so its log is complete.
func (a *App) closeSession(s *runtime.Session) {
	if s == nil {
		return
	}
	a.mu.Lock()
	a.closing = append(a.closing, s)
	a.setListenersLocked()
	a.mu.Unlock()
	s.Close()
	a.titles.Delete(s.ID())
	a.mu.Lock()
	a.closing = slices.DeleteFunc(a.closing, func(c *runtime.Session) bool { return c == s })
	a.setListenersLocked()
	a.mu.Unlock()
}

// setListenersLocked publishes who gets delivered events: the sessions
// closing and the open one. deliver reads it without a.mu, so the bus's lock
// (held while it delivers) is never taken before a.mu. a.mu is held.
func (a *App) setListenersLocked() {
	l := slices.Clone(a.closing)
	if a.sess != nil {
		l = append(l, a.sess)
	}
	bg := map[string]bool{}
	for _, t := range a.tabs {
		if t != a.cur && t.sess != nil {
			l = append(l, t.sess)
			bg[t.sess.ID()] = true
		}
	}
	a.listening.Store(&l)
	a.background.Store(&bg)
	a.saveTabsLocked()
}
