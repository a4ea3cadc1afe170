package main

import (
	"errors"

	"gatehouse/internal/agent"
	"gatehouse/internal/approval"
	"gatehouse/internal/llm"
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/session"
)

func (a *App) currentSession() *runtime.Session {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.sess
}

// session returns the open session, starting one for the workspace if none.
func (a *App) session() (*runtime.Session, error) {
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
	s, err := a.openSessionLocked(id, log, nil)
	if err != nil {
		if log != nil {
			log.Close()
		}
		return nil, err
	}
	a.setSessionLocked(s)
	return s, nil
}

// openSessionLocked opens session id in the workspace through the runtime,
// logging to log (nil: not saved). past, when not nil, is the saved session
// being resumed. a.mu is held.
func (a *App) openSessionLocked(id string, log *session.Log, past *session.Loaded) (*runtime.Session, error) {
	if a.ws == nil {
		return nil, errors.New("choose a workspace folder first")
	}
	set := a.effective().Settings
	o := runtime.Options{
		ID: id, Workspace: a.ws, Model: a.model, Policy: a.policy, Mode: a.approvalMode, Events: a.bus, Log: log, Past: past,
		Gateway:       func(id string, pub approval.Publisher) approval.Gateway { return approval.NewGUI(pub, id) },
		OnProcessExit: func(i protocol.ProcessInfo) { a.alerts.ProcessExited(i) }, ContextWindow: set.ContextWindow, MicroCompactAt: set.MicroCompactAt, CompactAt: set.CompactAt, Logger: a.log,
		OnStop: func(out agent.Outcome) {
			a.log.Info("turn stopped", "session", id, "turn", out.TurnID, "reason", out.Reason, "tokens", out.Usage.TotalTokens)
		},
	}
	o.Images, o.CanSee = a.imageStore(), a.canSee
	o.Processes = a.sessionProcs(proc.Options{Env: a.loginEnv.Environ}, id)
	o.Checkpoints = a.checkpointsLocked()
	if fw := a.files.Load(); fw != nil {
		o.Files = fw.Live()
	} else {
		o.NoWatch = true // the window's watch failed (logged); no second try per session
	}
	s, err := runtime.New(o)
	if err != nil {
		return nil, err
	}
	if err := a.mcp.Attach(s); err != nil {
		a.log.Warn("MCP tools", "err", err)
	}
	a.mcp.Tell(s)
	a.attachAgents(s, past)
	return s, nil
}

// modelConfig is the model client's configuration in effect now.
func (a *App) modelConfig() llm.Config {
	eff := a.effective()
	return llm.Config{API: llm.API(eff.Settings.API), BaseURL: eff.Settings.BaseURL, APIKey: eff.APIKey.Reveal(),
		Model: eff.Settings.Model, MaxRetries: llm.DefaultMaxRetries}
}

// SubmitResult tells the page whether its message started a turn or waits.
type SubmitResult struct {
	Queued bool `json:"queued"`
}

// Submit sends a message: it starts a turn, or queues it while one runs.
func (a *App) Submit(text string) (SubmitResult, error) {
	if a.State().NeedsSetup {
		return SubmitResult{}, errors.New("set up a model first (Settings)")
	}
	s, err := a.session()
	if err != nil {
		return SubmitResult{}, err
	}
	queued, err := s.Submit(text)
	return SubmitResult{Queued: queued}, err
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
