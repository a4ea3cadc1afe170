package gui

import (
	"errors"
	"gatehouse/internal/tools/steer"

	"gatehouse/internal/agent"
	"gatehouse/internal/approval"
	"gatehouse/internal/llm"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/session"
	"gatehouse/internal/sessionhost"
)

func (a *App) currentSession() *runtime.Session {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sess
}

// session returns the open session, starting one for the workspace if none.
// A workspace deleted behind the window's back (a worktree) has none: the
// error says so, and nothing is written anywhere else.
func (a *App) session() (*runtime.Session, error) {
	a.mu.Lock()
	dir := a.workspace
	a.mu.Unlock()
	if gone := goneReason(dir); gone != "" {
		return nil, errors.New(gone)
	}
	if s := a.currentSession(); s != nil {
		return s, nil
	}
	a.openMu.Lock()
	defer a.openMu.Unlock()
	if s := a.currentSession(); s != nil {
		return s, nil // another call opened it meanwhile
	}
	s, err := a.open("", false)
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.setSessionLocked(s.Session)
	a.mu.Unlock()
	return s.Session, nil
}

// open opens session id of the workspace through the host recipe: a new
// one when id is "", else the saved one (resume). a.openMu is held, a.mu
// is not: opening starts a runtime, MCP tools and agents, and the gate of
// a closing session reads the mode under a.mu.
func (a *App) open(id string, resume bool) (*sessionhost.Session, error) {
	a.mu.Lock()
	ws := a.ws
	a.mu.Unlock()
	if ws == nil {
		return nil, errors.New("choose a workspace folder first")
	}
	if id == "" {
		id = session.NewID()
	}
	spec := sessionhost.Spec{ID: id, Resume: resume, Workspace: ws, Model: a.model, Policy: a.policy,
		Mode: a.approvalMode, Events: a.bus, Asker: steer.NewBroker(),
		Gateway:       func(id string, pub approval.Publisher) approval.Gateway { return approval.NewGUI(id) },
		OnProcessExit: func(i protocol.ProcessInfo) { a.alerts.ProcessExited(i) },
		OnStop: func(out agent.Outcome) {
			a.log.Info("turn stopped", "session", id, "turn", out.TurnID, "reason", out.Reason, "tokens", out.Usage.TotalTokens)
		},
	}
	spec.CanSee = a.canSee
	if fw := a.files.Load(); fw != nil {
		spec.Files = fw.Live()
	} else {
		spec.NoWatch = true // the window's watch failed (logged); no second try per session
	}
	s, err := a.kit.Open(spec)
	if err != nil {
		return nil, err
	}
	a.keepAgents(s)
	a.keepTeams(s)
	return s, nil
}

// modelConfig is the model client's configuration in effect now.
func (a *App) modelConfig() llm.Config {
	eff := a.effective()
	return llm.Config{API: llm.API(eff.Settings.API), BaseURL: eff.Settings.BaseURL, APIKey: eff.APIKey.Reveal(),
		Model: eff.Settings.Model, MaxRetries: llm.DefaultMaxRetries}
}

// Cancel stops the running turn: the model stream and any running tool.
func (a *App) Cancel() {
	if s := a.currentSession(); s != nil {
		s.Cancel()
	}
}

// Queued returns messages waiting for the running turn to stop.
func (a *App) Queued() []string {
	if s := a.currentSession(); s != nil {
		return s.Queued()
	}
	return []string{}
}

// Snapshot returns the open session's state, for a resync after a seq gap.
func (a *App) Snapshot() protocol.Snapshot {
	a.bus.Flush()
	if s := a.currentSession(); s != nil {
		return s.Snapshot()
	}
	return protocol.Snapshot{Transcript: []protocol.TranscriptItem{}, PendingApprovals: []protocol.ApprovalRequestedPayload{},
		Processes: []protocol.ProcessInfo{}, LastSeq: a.bus.LastSeq()}
}
