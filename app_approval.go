package main

import (
	"errors"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
	"gatehouse/internal/workspace"
)

// approvalMode is the mode in effect; the gate reads it on every call, so
// SetApprovalMode applies to the next call at once.
func (a *App) approvalMode() approval.Mode {
	a.mu.Lock()
	defer a.mu.Unlock()
	return approval.Mode(a.mode)
}

// newGate builds the approval gate of session id: the window's dialog as
// its gateway, the workspace for the shell analysis, every decision and
// rule change reported to the log.
func (a *App) newGate(id string, ws *workspace.Workspace, log *session.Log) (*approval.Gate, *approval.GUI) {
	gw := approval.NewGUI(a.bus, id)
	gate := approval.New(approval.Config{
		Mode: a.approvalMode, Gateway: gw, Workspace: ws,
		// A waiting preview's files are watched, so the dialog can say
		// when they change on disk (approval.stale).
		Watch: a.watchFiles,
		// Every decision, and every rule it creates or revokes, goes to
		// the session log.
		Hook: func(r approval.Record) {
			a.log.Info("approval", "session", id, "kind", r.Kind, "approval", r.ApprovalID, "call", r.CallID,
				"tool", r.Tool, "by", r.By)
			if log == nil {
				return
			}
			typ := session.RecordRule
			if r.Kind == approval.RecordDecision {
				typ = session.RecordDecision
			}
			if err := log.Append(typ, r); err != nil {
				a.log.Warn("session log", "err", err)
			}
		},
	})
	return gate, gw
}

var errNoSession = errors.New("no session is open")

// ResolveApproval answers the approval dialog approvalID. The first answer
// wins: answering again, or after the turn was cancelled, fails and
// changes nothing. A decision the request cannot take (partial for a
// command, a file not in the change) fails and leaves it waiting, and so
// does a request of a session that is not the window's.
func (a *App) ResolveApproval(approvalID string, decision protocol.Decision) error {
	s := a.currentSession()
	if s == nil {
		return errNoSession
	}
	return approval.Owned(s.gw).Resolve(approvalID, decision)
}

// RepreviewApproval prepares the waiting request approvalID again from the
// disk as it is now, after its files changed (approval.stale). The request
// keeps its id: approval.requested comes again with the fresh preview and
// replaces the dialog's, and approving is possible again.
func (a *App) RepreviewApproval(approvalID string) error {
	s := a.currentSession()
	if s == nil {
		return errNoSession
	}
	return approval.Owned(s.gw).Repreview(approvalID)
}

// watchFiles is the gates' Config.Watch: the open workspace's watcher, or
// no watching when there is none.
func (a *App) watchFiles(paths []string, onChange func([]string)) (cancel func()) {
	fw := a.files.Load()
	if fw == nil {
		return func() {}
	}
	return fw.w.OnChange(paths, onChange)
}

// ListRules returns the open session's approval rules, oldest first.
func (a *App) ListRules() []protocol.Rule {
	s := a.currentSession()
	if s == nil {
		return []protocol.Rule{}
	}
	return s.gate.Rules().List()
}

// RevokeRule removes a session rule; the calls it covered ask again.
func (a *App) RevokeRule(id string) error {
	s := a.currentSession()
	if s == nil {
		return errNoSession
	}
	return s.gate.Rules().Revoke(id)
}
