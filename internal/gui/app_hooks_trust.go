package gui

import (
	"errors"

	"gatehouse/internal/hooks"
	"gatehouse/internal/trust"
)

// WorkspaceHooksPending returns the open workspace's own hooks
// (.gatehouse/hooks.json and the scripts its commands name) when they wait
// for trust, for the window's trust banner: every command and every file
// (nil: nothing to ask).
func (a *App) WorkspaceHooksPending() (*hooks.WaitingHooks, error) {
	root := a.workspaceRoot()
	if root == "" {
		return nil, nil
	}
	return hooks.Waiting(root, trust.NewStore(a.store.Dir()))
}

// WorkspaceHooksTrust trusts the workspace's hooks as the banner showed
// them (hash); the open session runs them, confined, from its next hook.
func (a *App) WorkspaceHooksTrust(hash string) error {
	root := a.workspaceRoot()
	if root == "" {
		return errors.New("no workspace is open")
	}
	return hooks.TrustWorkspace(root, trust.NewStore(a.store.Dir()), hash)
}
