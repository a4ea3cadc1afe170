package main

import (
	"context"
	"errors"
	"sync"

	"gatehouse/internal/agent"
	"gatehouse/internal/approval"
	"gatehouse/internal/llm"
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/builtin"
	"gatehouse/internal/workspace"
)

// liveSession is the conversation open in the window.
type liveSession struct {
	id    string
	state *session.State
	ctrl  *session.Controller
	procs *proc.Registry
	// log is the session's log on disk; nil when sessions are not saved.
	log  *session.Log
	gate *approval.Gate
	gw   *approval.GUI
}

// close cancels the running turn, then kills every process the session
// started (whole groups), and saves them with the log.
func (s *liveSession) close() {
	s.gw.Close() // a waiting dialog rejects; the turn can stop
	s.ctrl.Close()
	// Close, not CloseAll: the processes' last events are delivered before
	// it returns, so none arrives after the session is gone (or resumed).
	s.procs.Close()
	s.closeLog()
}

func (a *App) currentSession() *liveSession {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sess
}

// session returns the open session, starting one for the workspace if none.
func (a *App) session() (*liveSession, error) {
	seq := a.bus.LastSeq() // before a.mu: the bus calls deliver, which takes a.mu
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.sess != nil {
		return a.sess, nil
	}
	if a.workspace == "" {
		return nil, errors.New("choose a workspace folder first")
	}
	id := session.NewID()
	log, err := a.createLog(id)
	if err != nil {
		return nil, err
	}
	s, err := a.openSessionLocked(id, log, nil, seq)
	if err != nil {
		return nil, err
	}
	a.sess = s
	return s, nil
}

// openSessionLocked builds session id for the workspace, logging to log
// (nil: not saved). past, when not nil, is the saved session being resumed.
// a.mu is held.
func (a *App) openSessionLocked(id string, log *session.Log, past *session.Loaded, seq uint64) (*liveSession, error) {
	if a.workspace == "" {
		return nil, errors.New("choose a workspace folder first")
	}
	ws, err := workspace.New(a.workspace, workspace.Options{})
	if err != nil {
		return nil, err
	}
	procs := proc.NewRegistry(proc.Options{Env: a.loginEnv.Environ, Observer: session.ProcEvents{Events: a.bus, SessionID: id, OnExit: func(i protocol.ProcessInfo) { a.alerts.processExited(i) }}})
	reg, err := builtin.Registry(ws, procs)
	for _, p := range a.mcp.Providers() {
		for _, t := range p.Tools() {
			if err == nil {
				err = reg.Register(t)
			}
		}
	}
	if err != nil {
		procs.CloseAll()
		return nil, err
	}
	gate, gw := a.newGate(id, ws, log)
	// The file recorder sits outside the gate: the gate runs an approved call
	// itself (it is listed last), so nothing inside it sees the call.
	router := tools.NewRouter(reg, tools.Policy{}, tools.OutputCap(256<<10), a.recordFiles(ws), gate.Middleware)
	ag := agent.New(agent.Config{
		Model: a.model, Tools: router, Events: a.bus, SessionID: id,
		System: agent.SystemPrompt(a.workspace), ContextWindow: a.effective().Settings.ContextWindow,
		Notes: a.fileNotes,
	})
	s := &liveSession{id: id, procs: procs, log: log, gate: gate, gw: gw}
	s.ctrl = session.NewController(id, ag, func(out agent.Outcome) {
		a.log.Info("turn stopped", "session", id, "turn", out.TurnID, "reason", out.Reason, "tokens", out.Usage.TotalTokens)
	})
	a.restore(s, ag, past, seq)
	return s, nil
}

// SubmitResult tells the page whether its message started a turn or waits.
type SubmitResult struct {
	Queued bool `json:"queued"`
}

// Submit sends a message: it starts a turn, or queues the message while one
// runs.
func (a *App) Submit(text string) (SubmitResult, error) {
	if a.State().NeedsSetup {
		return SubmitResult{}, errors.New("set up a model first (Settings)")
	}
	s, err := a.session()
	if err != nil {
		return SubmitResult{}, err
	}
	queued, err := s.ctrl.Submit(text)
	return SubmitResult{Queued: queued}, err
}

// Cancel stops the running turn: the model stream and any running tool.
func (a *App) Cancel() {
	if s := a.currentSession(); s != nil {
		s.ctrl.Cancel()
	}
}

// Queued returns messages waiting for the running turn to stop.
func (a *App) Queued() []string {
	if s := a.currentSession(); s != nil {
		return s.ctrl.Queued()
	}
	return []string{}
}

// Snapshot returns the open session's state, for a resync after a seq gap.
func (a *App) Snapshot() protocol.Snapshot {
	a.bus.Flush()
	if s := a.currentSession(); s != nil {
		return s.state.Snapshot()
	}
	return protocol.Snapshot{Transcript: []protocol.TranscriptItem{}, PendingApprovals: []protocol.ApprovalRequestedPayload{},
		Processes: []protocol.ProcessInfo{}, LastSeq: a.bus.LastSeq()}
}

// liveModel is the agent's model: a client for the settings in effect at
// each request, so a change on the settings screen applies to the next one.
type liveModel struct {
	app *App

	mu     sync.Mutex
	key    string
	client *llm.Client
}

func (m *liveModel) Stream(ctx context.Context, req llm.Request, onText func(string)) (llm.Response, error) {
	eff := m.app.effective()
	k := eff.Settings.API + "\x00" + eff.Settings.BaseURL + "\x00" + eff.Settings.Model + "\x00" + eff.APIKey.Reveal()
	m.mu.Lock()
	if m.client == nil || m.key != k {
		c, err := llm.New(llm.Config{API: llm.API(eff.Settings.API), BaseURL: eff.Settings.BaseURL, APIKey: eff.APIKey.Reveal(),
			Model: eff.Settings.Model, MaxRetries: llm.DefaultMaxRetries})
		if err != nil {
			m.mu.Unlock()
			return llm.Response{}, err
		}
		m.client, m.key = c, k
	}
	c := m.client
	m.mu.Unlock()
	return c.Stream(ctx, req, onText)
}
