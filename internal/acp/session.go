package acp

import (
	"context"
	"sync"
	"sync/atomic"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/workspace"
)

// acpSession is one runtime session and what the host keeps beside it: the
// mode the editor chose, the tool calls it was told about, the turn lock.
type acpSession struct {
	a  *Agent
	id string
	ws *workspace.Workspace
	// rt is the session the recipe opened; closing it stops its MCP
	// servers too.
	rt   *sessionhost.Session
	mode atomic.Value // approval.Mode
	past *session.Loaded
	// turn lets one prompt run at a time: a prompt that cancelled the
	// running one waits here until it stopped.
	turn sync.Mutex

	pubMu sync.Mutex
	pub   approval.Publisher // the session's bus, from the gateway factory

	callMu sync.Mutex
	calls  map[string]*callInfo // calls started and not finished
}

// callInfo is what the host remembers of a call between its updates: the
// files it may change, as they were before it ran.
type callInfo struct {
	before []image
}

var modeDescriptions = []struct{ id, name, desc string }{
	{string(approval.Manual), "Manual", "Ask before every tool call"},
	{string(approval.Safe), "Safe", "Read without asking; ask before changing files or running commands"},
	{string(approval.Auto), "Auto", "Ask for nothing (the workspace boundary still holds)"},
	{string(approval.Plan), "Plan", "Only read, then propose a plan; switch to another mode to carry it out"},
}

// close ends the session, then its MCP servers.
func (s *acpSession) close() { s.rt.Close() }

func (s *acpSession) currentMode() approval.Mode { return s.mode.Load().(approval.Mode) }

func (s *acpSession) modes() *sdk.SessionModeState {
	st := &sdk.SessionModeState{CurrentModeId: sdk.SessionModeId(s.currentMode())}
	for _, m := range modeDescriptions {
		st.AvailableModes = append(st.AvailableModes, sdk.SessionMode{Id: sdk.SessionModeId(m.id), Name: m.name,
			Description: sdk.Ptr(m.desc)})
	}
	return st
}

// gateway is the session's runtime.Options.Gateway.
func (s *acpSession) gateway(sessionID string, pub approval.Publisher) approval.Gateway {
	s.pubMu.Lock()
	s.pub = pub
	s.pubMu.Unlock()
	return &permissionGateway{s: s, sessionID: sessionID, pub: pub}
}

// flush delivers the events the session's bus still holds, so the updates
// they make are sent before what follows (a permission request, the
// prompt's answer).
func (s *acpSession) flush() {
	s.pubMu.Lock()
	pub := s.pub
	s.pubMu.Unlock()
	if f, ok := pub.(interface{ Flush() }); ok {
		f.Flush()
	}
}

// send writes one session/update; a failure (the editor went away) is
// logged, the turn goes on.
func (s *acpSession) send(ctx context.Context, u sdk.SessionUpdate) {
	err := s.a.peer().SessionUpdate(ctx, sdk.SessionNotification{SessionId: sdk.SessionId(s.id), Update: u})
	if err != nil {
		s.a.o.Logger.Debug("session/update not sent", "err", err)
	}
}

// Emit implements events.Sink: the session's events become session/update
// notifications. It runs on the session bus's goroutine, in event order.
func (s *acpSession) Emit(e protocol.Event) {
	ctx := context.Background()
	if e.Teammate != "" && s.teammate(ctx, e) {
		return
	}
	switch p := e.Payload.(type) {
	case protocol.TeamMessage, protocol.TeamNotice:
		s.send(ctx, sdk.UpdateAgentThoughtText(teamLine(p)+"\n"))
	case protocol.MessageDeltaPayload:
		if p.Text != "" {
			s.send(ctx, sdk.UpdateAgentMessageText(p.Text))
		}
	case protocol.ToolStartedPayload:
		// The bus delivers tool.started from Publish, before the call
		// runs: the files it may change are read as they are now.
		s.callMu.Lock()
		s.calls[p.CallID] = &callInfo{before: beforeImages(s.ws, p.Tool, p.Args)}
		s.callMu.Unlock()
		s.send(ctx, startCall(s.ws, p.CallID, p.Tool, p.Args))
	case protocol.ToolFinishedPayload:
		s.callMu.Lock()
		ci := s.calls[p.CallID]
		delete(s.calls, p.CallID)
		s.callMu.Unlock()
		var diffs []sdk.ToolCallContent
		if ci != nil && !p.IsError {
			diffs = diffContent(s.ws, ci.before)
		}
		s.send(ctx, finishCall(p, diffs))
	case protocol.TurnStoppedPayload:
		if p.Plan != nil && e.ParentCallID == "" {
			// plan mode: the plan is the turn's answer; the editor's
			// user switches mode and asks to carry it out.
			s.send(ctx, sdk.UpdateAgentMessageText("\n\n"+p.Plan.Plan+"\n"))
		}
	}
}
