package main

import (
	"errors"

	"gatehouse/internal/agent"
	"gatehouse/internal/agents"
	"gatehouse/internal/llm"
	"gatehouse/internal/proc"
	"gatehouse/internal/runtime"
	"gatehouse/internal/session"
	"gatehouse/internal/trust"
)

// attachAgents offers the session the agent definitions (built-ins, the
// user's, and the workspace's when the folder is trusted for them) as
// delegate and subagent tools. A definition that does not parse is logged
// and left out.
func (a *App) attachAgents(s *runtime.Session, past *session.Loaded) {
	o := a.agentHost()
	o.Past = past
	m, errs := agents.Setup(s, o)
	a.logAgentErrs(errs)
	if m != nil {
		a.managers.Store(s.ID(), m)
		s.OnClose(func() { a.managers.Delete(s.ID()) })
	}
}

// agentHost is where the open window's agents come from.
func (a *App) agentHost() agents.HostOptions {
	return agents.HostOptions{ConfigDir: a.store.Dir(), Models: a.agentModel,
		Trusted:   agents.WorkspaceTrust(trust.NewStore(a.store.Dir())),
		Processes: proc.Options{Env: a.loginEnv.Environ}}
}

func (a *App) logAgentErrs(errs []error) {
	for _, err := range errs {
		a.log.Warn("agent definition left out", "err", err)
	}
}

// AgentsPending returns the workspace's .gatehouse/agents/ when it waits
// for trust (nil: nothing to ask); the open session's definitions are
// loaded again first, so one changed since trust is no longer offered.
func (a *App) AgentsPending() (*agents.Pending, error) {
	ts := trust.NewStore(a.store.Dir())
	if m, err := a.manager(); err == nil {
		p, errs := m.Check(ts, a.agentHost())
		a.logAgentErrs(errs)
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
		errs, err := m.Trust(ts, a.agentHost(), hash)
		a.logAgentErrs(errs)
		return err
	}
	return agents.TrustWorkspace(ts, a.workspaceRoot(), hash)
}

func (a *App) workspaceRoot() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.workspace
}

// agentModel is the model a definition names, on the configured server.
func (a *App) agentModel(name string) (agent.Model, error) {
	c := a.modelConfig()
	c.Model = name
	return llm.New(c)
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
		a.logAgentErrs(m.Reload(a.agentHost()))
	}
	if err := a.mcp.Recheck(); err != nil {
		a.log.Warn("MCP server lists", "err", err)
	}
	return ts.List()
}
