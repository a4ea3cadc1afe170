package main

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"gatehouse/internal/agent"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

// processTail is how much output of each process a session log keeps.
const processTail = 64 << 10

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
	if a.sessions == nil || ws == "" {
		return out
	}
	list, err := a.sessions.List(ws)
	if err != nil {
		a.log.Warn("could not list sessions", "err", err)
		return out
	}
	for _, s := range list {
		out = append(out, SessionInfo{ID: s.ID, Title: s.Title, CreatedMs: s.CreatedMs, UpdatedMs: s.UpdatedMs,
			Turns: s.Turns, Current: cur != nil && cur.id == s.ID})
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
	a.sess = nil
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
func (a *App) ResumeSession(id string) (protocol.Snapshot, error) {
	a.switchMu.Lock()
	defer a.switchMu.Unlock()
	a.mu.Lock()
	ws, cur := a.workspace, a.sess
	a.mu.Unlock()
	if a.sessions == nil {
		return a.Snapshot(), errors.New("sessions are not saved in this run")
	}
	if ws == "" {
		return a.Snapshot(), errors.New("choose a workspace folder first")
	}
	if cur != nil && cur.id == id {
		return a.Snapshot(), nil
	}
	// Read it before closing the open one, so a bad id changes nothing.
	if _, err := a.sessions.Load(ws, id); err != nil {
		return a.Snapshot(), fmt.Errorf("cannot resume the session: %w", err)
	}
	a.mu.Lock()
	old := a.sess
	a.sess = nil
	a.mu.Unlock()
	a.closeSession(old)
	a.resetChanges()

	log, past, err := a.sessions.Open(ws, id)
	if err != nil {
		return a.Snapshot(), fmt.Errorf("cannot resume the session: %w", err)
	}
	if past.Torn || past.Skipped > 0 {
		a.log.Warn("session log had unreadable lines", "session", id, "tornLast", past.Torn, "skipped", past.Skipped)
	}
	seq := a.bus.LastSeq()
	a.mu.Lock()
	var s, stray *liveSession
	if a.workspace != ws {
		err = errors.New("the workspace changed while the session was opening")
	} else if s, err = a.openSessionLocked(id, log, past, seq); err == nil {
		stray, a.sess = a.sess, s // a message sent meanwhile started a session
	}
	a.mu.Unlock()
	if err != nil {
		log.Close()
		return a.Snapshot(), fmt.Errorf("cannot resume the session: %w", err)
	}
	a.closeSession(stray)
	return a.Snapshot(), nil
}

// createLog returns the log of new session id, nil when sessions are not
// saved. a.mu is held.
func (a *App) createLog(id string) (*session.Log, error) {
	if a.sessions == nil {
		return nil, nil
	}
	return a.sessions.Create(a.workspace, id)
}

// restore gives a new session its state: the saved transcript, history,
// turn count and processes when past is not nil. seq is the bus's last seq.
func (a *App) restore(s *liveSession, ag *agent.Agent, past *session.Loaded, seq uint64) {
	var items []protocol.TranscriptItem
	if past != nil {
		// A log that ends inside a turn (Gatehouse left mid-turn) gets that
		// turn's stop item, in the log too, so it reads as ended.
		if stop, ok := session.Interrupted(past.Items); ok {
			past.Items = append(past.Items, stop)
			if write := a.logItems(s); write != nil {
				write(stop)
			}
		}
		items = past.Items
	}
	s.state = session.NewState(s.id, items, a.logItems(s))
	s.state.SetLastSeq(seq)
	if past == nil {
		return
	}
	session.Resume(ag, past.Items)
	s.ctrl.SetTurns(turnCount(past.Items))
	var infos []protocol.ProcessInfo
	for _, i := range s.procs.Restore(past.Processes) {
		infos = append(infos, session.ProcessInfo(i))
	}
	s.state.AddProcesses(infos)
}

// logItems appends each finished item to the session's log. A failed write
// is logged once per session; the session goes on unsaved.
func (a *App) logItems(s *liveSession) func(protocol.TranscriptItem) {
	if s.log == nil {
		return nil
	}
	var warned atomic.Bool
	return func(it protocol.TranscriptItem) {
		if err := s.log.AppendItem(it); err != nil && !warned.Swap(true) {
			a.log.Warn("could not write the session log", "session", s.id, "err", err)
		}
	}
}

// turnCount is the number of the last turn of items ("ID-tN"), so the next
// turn gets a new id.
func turnCount(items []protocol.TranscriptItem) uint64 {
	var n uint64
	for _, it := range items {
		if it.Kind != protocol.ItemUser {
			continue
		}
		n++
		if i := strings.LastIndex(it.TurnID, "-t"); i >= 0 {
			if k, err := strconv.ParseUint(it.TurnID[i+2:], 10, 64); err == nil && k > n {
				n = k
			}
		}
	}
	return n
}

// closeLog saves the session's processes with its log and closes it.
func (s *liveSession) closeLog() {
	if s.log == nil {
		return
	}
	_ = s.log.SaveProcesses(s.procs.Snapshot(processTail))
	_ = s.log.Close()
}

// closeSession closes s (nil: nothing). Until it has closed, s still gets
// the events it publishes (its turn's stop), so its log is complete.
func (a *App) closeSession(s *liveSession) {
	if s == nil {
		return
	}
	a.mu.Lock()
	a.closing = append(a.closing, s)
	a.mu.Unlock()
	s.ctrl.Close()
	a.bus.Flush()
	s.close()
	a.mu.Lock()
	a.closing = slices.DeleteFunc(a.closing, func(c *liveSession) bool { return c == s })
	a.mu.Unlock()
}

// listeners are the sessions that get delivered events: the open one and
// those closing.
func (a *App) listeners() []*liveSession {
	a.mu.Lock()
	defer a.mu.Unlock()
	if len(a.closing) == 0 {
		if a.sess == nil {
			return nil
		}
		return []*liveSession{a.sess}
	}
	out := append([]*liveSession(nil), a.closing...)
	if a.sess != nil {
		out = append(out, a.sess)
	}
	return out
}
