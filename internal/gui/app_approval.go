package gui

import (
	"errors"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/settings"
)

// approvalMode is the mode in effect; the gate reads it on every call, so
// SetApprovalMode applies to the next call at once.
func (a *App) approvalMode() approval.Mode {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.mode
}

// SetApprovalMode switches between manual, safe and auto, and remembers it.
func (a *App) SetApprovalMode(mode string) (AppState, error) {
	if err := a.useMode(mode); err != nil {
		return a.State(), err
	}
	a.saveSettings(func(s *settings.Settings) { s.ApprovalMode = mode })
	return a.State(), nil
}

// useMode switches the mode for this run only (the --approval flag).
func (a *App) useMode(mode string) error {
	m, err := protocol.ParseApprovalMode(mode)
	if err != nil {
		return err
	}
	a.mu.Lock()
	a.mode = m
	a.mu.Unlock()
	return nil
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
	return approval.Owned(gui(s)).Resolve(approvalID, decision)
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
	return approval.Owned(gui(s)).Repreview(approvalID)
}

// RecheckApproval has the language servers check only the files and hunks
// the user ticked in the dialog of approvalID (all of it when sel is
// empty), in memory; approval.diagnostics brings "checking" and then the
// outcome for sel.
func (a *App) RecheckApproval(approvalID string, sel protocol.ProposalSelection) error {
	s := a.currentSession()
	if s == nil {
		return errNoSession
	}
	return approval.Owned(gui(s)).Recheck(approvalID, sel)
}

// gui is the window's gateway of s (Options.Gateway in app_chat.go).
func gui(s *runtime.Session) *approval.GUI { return s.Gateway().(*approval.GUI) }

// ListRules returns the open session's approval rules, oldest first.
func (a *App) ListRules() []protocol.Rule {
	s := a.currentSession()
	if s == nil {
		return []protocol.Rule{}
	}
	return s.Rules().List()
}

// RevokeRule removes a session rule; the calls it covered ask again.
func (a *App) RevokeRule(id string) error {
	s := a.currentSession()
	if s == nil {
		return errNoSession
	}
	return s.Rules().Revoke(id)
}
