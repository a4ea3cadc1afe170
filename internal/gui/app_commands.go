package gui

import (
	"path/filepath"

	"gatehouse/internal/slash"
	"gatehouse/internal/trust"
	"gatehouse/internal/usercmd"
)

// commandsDir is the folder of the user's own slash commands.
func (a *App) commandsDir() string { return filepath.Join(a.store.Dir(), "commands") }

// newSlash is the window's "/" registry: the built-ins, the user's own
// commands, then the open workspace's .gatehouse/commands/ once trusted
// as it is now (each read again on every list, so a new file shows at
// once and a changed one stops being offered), the skills, and the MCP
// servers' prompts the shown tab is offered (/server:prompt).
func (a *App) newSlash() *slash.Registry {
	r := slash.New()
	r.Register(slash.User, func() ([]slash.Command, []error) {
		cmds, errs := usercmd.Load(a.commandsDir())
		return usercmd.Entries(cmds), errs
	})
	r.Register(slash.Workspace, func() ([]slash.Command, []error) {
		ws := a.workspaceRoot()
		if ws == "" {
			return nil, nil
		}
		cmds, errs := usercmd.Workspace(trust.NewStore(a.store.Dir()), ws)
		return usercmd.Entries(cmds), errs
	})
	r.Register(slash.Skill, a.skillEntries)
	r.Register(slash.Prompt, func() ([]slash.Command, []error) {
		if h := a.mcpHost(); h != nil {
			return h.Prompts(a.workspaceRoot())
		}
		return nil, nil
	})
	return r
}

// Commands lists the composer's "/" entries: the ones /name runs, built-ins
// first, then those another entry of the same name shadows (ShadowedBy).
func (a *App) Commands() []slash.Command {
	es, errs := a.slash.List()
	for _, err := range errs {
		a.log.Warn("a command was left out", "err", err)
	}
	if es == nil {
		es = []slash.Command{}
	}
	return es
}

// CommandsPending returns the workspace's .gatehouse/commands/ when it
// waits for trust (nil: nothing to ask).
func (a *App) CommandsPending() (*usercmd.Pending, error) {
	return usercmd.PendingTrust(trust.NewStore(a.store.Dir()), a.workspaceRoot())
}

// CommandsTrustWorkspace trusts the workspace's commands as the prompt
// showed them (hash); they are offered from the next "/" on.
func (a *App) CommandsTrustWorkspace(hash string) error {
	return usercmd.TrustWorkspace(trust.NewStore(a.store.Dir()), a.workspaceRoot(), hash)
}
