package gui

import (
	"errors"

	"gatehouse/internal/agents"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/trust"
)

// keepAgents remembers the manager of the session's subagents (the
// recipe set them up), for the agents strip and the trust banner.
func (a *App) keepAgents(s *sessionhost.Session) {
	if s.Agents != nil {
		id := s.ID()
		a.managers.Store(id, s.Agents)
		s.OnClose(func() { a.managers.Delete(id) })
	}
}

// AgentsPending returns the workspace's .gatehouse/agents/ when it waits
// for trust (nil: nothing to ask); the open session's definitions are
// loaded again first, so one changed since trust is no longer offered.
func (a *App) AgentsPending() (*agents.Pending, error) {
	ts := trust.NewStore(a.store.Dir())
	if m, err := a.manager(); err == nil {
		p, errs := m.Check(ts, a.kit.AgentHost())
		a.kit.LogAgentErrors(errs)
		return p, nil
	}
	return agents.PendingTrust(ts, a.workspaceRoot())
}

// AgentsTrustWorkspace trusts the workspace's definitions as the prompt
// showed them (hash) and offers them to the open session, if any (a
// session opened later loads them itself).
func (a *App) AgentsTrustWorkspace(hash string) error {
	ts := trust.NewStore(a.store.Dir())
	if m, err := a.manager(); err == nil {
		errs, err := m.Trust(ts, a.kit.AgentHost(), hash)
		a.kit.LogAgentErrors(errs)
		return err
	}
	return agents.TrustWorkspace(ts, a.workspaceRoot(), hash)
}

func (a *App) workspaceRoot() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.workspace
}

func (a *App) manager() (*agents.Manager, error) {
	s := a.currentSession()
	if s == nil {
		return nil, errors.New("no session is open")
	}
	m, ok := a.managers.Load(s.ID())
	if !ok {
		return nil, errors.New("the session has no agents")
	}
	return m.(*agents.Manager), nil
}

// Subagents lists the open session's children, oldest first, for the
// agents strip.
func (a *App) Subagents() ([]agents.ChildInfo, error) {
	m, err := a.manager()
	if err != nil {
		return nil, err
	}
	return m.Children(), nil
}

// AgentDefinitions lists the agents the open session may delegate to, with
// the file each came from.
func (a *App) AgentDefinitions() ([]agents.Definition, error) {
	m, err := a.manager()
	if err != nil {
		return nil, err
	}
	return m.Definitions(), nil
}

// StopSubagent stops a background child of the open session.
func (a *App) StopSubagent(id string) error {
	m, err := a.manager()
	if err != nil {
		return err
	}
	_, err = m.Stop(id)
	return err
}

// TrustedFolders lists the folders the user trusts and what each trusts
// (Settings → Trusted folders).
func (a *App) TrustedFolders() ([]trust.FolderTrust, error) {
	return trust.NewStore(a.store.Dir()).List()
}

// RevokeTrust forgets what the user trusted in folder; when it is the open
// workspace, its agents and servers stop being offered at once (and the
// prompts ask again). It returns the folders still trusted.
func (a *App) RevokeTrust(folder string) ([]trust.FolderTrust, error) {
	ts := trust.NewStore(a.store.Dir())
	if err := ts.RevokeFolder(folder); err != nil {
		return nil, err
	}
	if m, err := a.manager(); err == nil {
		a.kit.LogAgentErrors(m.Reload(a.kit.AgentHost()))
	}
	if err := a.mcpHost().Recheck(); err != nil {
		a.log.Warn("MCP server lists", "err", err)
	}
	return ts.List()
}
