// Package sessionhost is the one recipe every host opens its sessions with:
// the window, `gatehouse exec`, `gatehouse acp` and anything later. A host
// parses its input (flags, JSON-RPC, Wails calls) and supplies how it asks
// (a gateway) and where events go (a sink, or its own bus); Open does the
// rest, the same way for all of them:
//
//   - the session log: a new one in the data folder, or the saved session
//     being resumed (Spec.Resume);
//   - the checkpoint store (undo), one per Host, opened on first use;
//   - the supervisor helper and the sandbox, as the settings say when each
//     command starts;
//   - MCP servers: the host's shared ones (the window's panel), or the
//     user's list plus the host's extra servers, started and waited for;
//   - the session's language servers (languages.go), confined;
//   - subagents (agents.Setup): built-ins, the user's definitions and a
//     trusted workspace's, with models from the settings in effect;
//   - runtime.New, which assembles the rest (tools, middleware, gate).
//
// Only this package and the child-session factory (internal/agents) call
// runtime.New or agents.Setup or construct MCP managers; a boundary test in
// internal/runtime holds every other package to that.
//
// A Host is safe for concurrent use; Open holds no lock of the caller's and
// takes only the Host's own short lock (the checkpoint store's first open).
package sessionhost

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"

	"gatehouse/internal/agent"
	"gatehouse/internal/agents"
	"gatehouse/internal/approval"
	"gatehouse/internal/attach"
	"gatehouse/internal/budget"
	"gatehouse/internal/checkpoint"
	"gatehouse/internal/events"
	"gatehouse/internal/llm"
	"gatehouse/internal/lsp"
	"gatehouse/internal/mcp"
	"gatehouse/internal/netproxy"
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	cmdhost "gatehouse/internal/sandbox/host"
	"gatehouse/internal/session"
	"gatehouse/internal/settings"
	"gatehouse/internal/skills"
	"gatehouse/internal/team"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/steer"
	"gatehouse/internal/tools/web"
	"gatehouse/internal/trust"
	"gatehouse/internal/watch"
	"gatehouse/internal/workspace"
)

// Options are what a host gives New beside its Env.
type Options struct {
	// Settings returns the settings in effect, read when a session opens
	// and when each command starts (the window's change while it runs).
	Settings func() settings.Effective
	// Logger hears what goes wrong beside the turns (nil: none).
	Logger *slog.Logger
	// OnMCPUpdate, when set, gives the host shared MCP servers (the
	// window's panel; see Host.MCP) and hears each change of their list.
	OnMCPUpdate func(protocol.McpUpdatedPayload)
	// MCPAsk puts a shared server's question to the user when the app
	// cannot tell which session's call caused it (mcp.Options.Ask).
	MCPAsk steer.FormAsker
}

// Host is one process's recipe: what its sessions share (the supervisor
// and its ledger, the checkpoint store, the session store, shared MCP
// servers). Close it when the process is done with every session.
type Host struct {
	env      Env
	o        Options
	cmds     *cmdhost.Host
	sessions *session.Store // nil: not saved
	mcp      *mcp.Host      // nil: no shared servers

	ledger  *budget.Ledger // nil: the day's spend is not kept
	mu      sync.Mutex
	browser *netproxy.Endpoint // the proxy's port for browser servers (browserProxy)
	undo    *checkpoint.Store
	undoErr error
}

// New returns the recipe of a host in env.
func New(env Env, o Options) *Host {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Settings == nil {
		o.Settings = func() settings.Effective { return settings.Effective{Settings: settings.Defaults()} }
	}
	if env.ProcEnv == nil {
		env.ProcEnv = (&proc.LoginEnv{}).Environ
	}
	h := &Host{env: env, o: o, cmds: cmdhost.New(env.DataDir, o.Logger)}
	if env.DataDir != "" {
		h.sessions = session.NewStore(env.DataDir)
		h.ledger = budget.OpenLedger(budget.LedgerDir(env.DataDir))
	}
	if o.OnMCPUpdate != nil {
		h.mcp = mcp.NewHost(mcp.HostOptions{ConfigDir: env.ConfigDir, EnvFunc: env.ProcEnv, Version: env.Version,
			OnUpdate: o.OnMCPUpdate, Confine: h.confine, Ask: o.MCPAsk, Proxy: h.browserProxy, AllowList: h.allowList})
	}
	return h
}

// Env is the environment the host was made with.
func (h *Host) Env() Env { return h.env }

// Commands is the supervisor helper and ledger the sessions' commands run
// under.
func (h *Host) Commands() *cmdhost.Host { return h.cmds }

// Sessions is the store of session logs (nil: sessions are not saved).
func (h *Host) Sessions() *session.Store { return h.sessions }

// MCP is the shared servers (nil unless Options.OnMCPUpdate was set). The
// host opens a workspace's list and starts it when it likes (the window:
// after the first frame); every session Open opens gets the tools of its
// own workspace's servers.
func (h *Host) MCP() *mcp.Host { return h.mcp }

// Sandbox is the sandbox part of the settings in effect.
func (h *Host) Sandbox() cmdhost.Config {
	s := h.o.Settings().Settings
	return cmdhost.ConfigOf(s)
}

// confine is how a workspace's own MCP servers run: under the supervisor,
// confined as its commands are.
func (h *Host) confine(workspace string) mcp.Confinement {
	helper, p, why := h.cmds.Confinement(workspace, h.env.ProcEnv(), h.SandboxFor(workspace)())
	return mcp.Confinement{Helper: helper, Policy: p, Why: why, Walls: p.Walls()}
}

// browserProxy is the URL of the app's filtering proxy for a user's browser
// server set to start with it: a port of the proxy of its own (Chromium
// sends no proxy credentials) held to the settings' network, read at each
// request, as the sessions' commands are.
func (h *Host) browserProxy() (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.browser == nil {
		p, err := h.cmds.Proxy()
		if err != nil {
			return "", err
		}
		net := netproxy.NewSession(func() (string, []string) { c := h.Sandbox(); return c.Network, c.Allow })
		if h.browser, err = p.Endpoint(net.Allowed); err != nil {
			return "", err
		}
	}
	return h.browser.URL(), nil
}

// allowList says whether the network setting is the allow-list now.
func (h *Host) allowList() bool { return h.Sandbox().Network == netproxy.ModeAllowList }

// Close stops the shared MCP servers and ends the ledger: call it after
// every session closed (nothing of this run is left over).
func (h *Host) Close() {
	if h.mcp != nil {
		h.mcp.Close()
	}
	h.mu.Lock()
	if h.browser != nil {
		h.browser.Close()
	}
	h.mu.Unlock()
	h.cmds.Close()
}

// Spec is one session a host opens.
type Spec struct {
	// ID is the session's id; "" makes a new one.
	ID string
	// Resume reopens the saved session ID of the workspace: its log, its
	// transcript and history, its agents' children.
	Resume bool
	// Workspace is the boundary every tool goes through.
	Workspace *workspace.Workspace
	// Model streams the model's answers.
	Model agent.Model
	// Gateway and Mode: how this host asks, and the approval mode read at
	// every call (runtime.Options).
	Gateway func(sessionID string, pub approval.Publisher) approval.Gateway
	Mode    func() approval.Mode
	// Asker answers the model's ask_user questions (runtime.Options).
	Asker steer.Asker
	// Events or Sink: where events go (runtime.Options).
	Events runtime.Publisher
	Sink   events.Sink
	// Files is the host's live watch shared by its sessions; NoWatch runs
	// without one (runtime.Options).
	Files   *watch.Live
	NoWatch bool
	// Policy limits the session's tools beside Env.Policy (zero: all).
	Policy tools.Policy
	// MaxSteps bounds the model requests of one turn (0: the default).
	MaxSteps int
	// Budget's non-zero session limits and calls per minute replace the
	// settings' for this session (exec's --max-cost, --max-tokens,
	// --max-calls-per-minute); the day's limits are always the settings'.
	Budget protocol.BudgetLimits
	// MCPFiles and MCPServers are servers to start for this session over
	// the user's list (exec's --mcp-config files, an editor's servers);
	// ignored when the host has shared servers. MCPWait bounds the wait
	// for them (nil: context.Background).
	MCPFiles   []string
	MCPServers []mcp.Entry
	MCPWait    context.Context
	// OnStop and OnProcessExit: runtime.Options.
	OnStop        func(agent.Outcome)
	OnProcessExit func(protocol.ProcessInfo)
	// CanSee says whether the model takes images now (nil: it does not;
	// see runtime.Options.CanSee). Images are kept in the data folder.
	CanSee func() bool
	// Teams turns agent teams on for the session (exec's --experimental
	// teams, an ACP session option); the settings' Teams.On and a resumed
	// log that had them do too (teams.go).
	Teams bool
}

// ErrMCPConfig marks an MCP server list that could not be read (a mistake
// of the user's or the editor's, not a failure of the app).
var ErrMCPConfig = errors.New("MCP servers")

// Session is an opened session and what the recipe set up beside it.
type Session struct {
	*runtime.Session
	// Agents offers the session's subagents (nil when none could be set up).
	Agents *agents.Manager
	// Past is the saved session it resumed (nil: a new session).
	Past *session.Loaded
	// Skills is the session's catalog of Agent Skills (Reload it once
	// the user trusted the workspace's).
	Skills *skills.Catalog
	// servers are the MCP servers started for this session only; detach
	// takes it off its workspace's shared servers.
	servers *mcp.Manager
	detach  func()
	// Languages is the session's language servers (languages.go).
	Languages      *lsp.Manager
	closeLanguages func()
	// team is the session's agent team (nil: off); teamLimits its bounds
	// from the settings in effect (teams.go).
	teamMu     sync.Mutex
	team       *team.Team
	teamLimits func() settings.Teams
	// gitTrust is the user's trust in a repository's git settings, for
	// the worktrees of teammates (nil: never trusted, safe git).
	gitTrust func(top string) func() bool
	// worktreeCopy is the settings' untracked files copied into a new
	// worktree, a teammate's too.
	worktreeCopy func() []string
}

// Servers are the MCP servers started for this session (nil: the host
// shares its servers, or none were started).
func (s *Session) Servers() *mcp.Manager { return s.servers }

// Close closes the session, then the MCP servers started for it.
func (s *Session) Close() {
	s.Session.Close()
	if s.detach != nil {
		s.detach()
	}
	if s.servers != nil {
		s.servers.Close()
	}
	if s.closeLanguages != nil {
		s.closeLanguages()
	}
}

// Open opens the session spec describes. On error nothing is left open.
func (h *Host) Open(spec Spec) (*Session, error) {
	if spec.Workspace == nil {
		return nil, errors.New("choose a workspace folder first")
	}
	root := spec.Workspace.Root()
	eff := h.o.Settings()
	set := eff.Settings
	id := spec.ID
	if id == "" {
		if spec.Resume {
			return nil, errors.New("resuming needs the session's id")
		}
		id = session.NewID()
	}
	out := &Session{}
	var log *session.Log
	switch {
	case spec.Resume && h.sessions == nil:
		return nil, errors.New("sessions are not saved here (no data folder)")
	case spec.Resume:
		var err error
		if log, out.Past, err = h.sessions.Open(root, id); err != nil {
			return nil, fmt.Errorf("cannot load session %s in %s: %w", id, root, err)
		}
		if out.Past.Torn || out.Past.Skipped > 0 {
			h.o.Logger.Warn("session log had unreadable lines", "session", id, "tornLast", out.Past.Torn, "skipped", out.Past.Skipped)
		}
	case h.sessions != nil:
		var err error
		if log, err = h.sessions.Create(root, id); err != nil {
			h.o.Logger.Warn("the session will not be saved", "err", err)
			log = nil
		}
	}
	fail := func(err error) (*Session, error) {
		if log != nil {
			log.Close()
		}
		if out.servers != nil {
			out.servers.Close()
		}
		if out.closeLanguages != nil {
			out.closeLanguages()
		}
		return nil, err
	}
	opts := runtime.Options{ID: id, Workspace: spec.Workspace, Model: spec.Model, Gateway: spec.Gateway, Mode: spec.Mode, Asker: spec.Asker,
		Events: spec.Events, Sink: spec.Sink, Log: log, Past: out.Past, Files: spec.Files, NoWatch: spec.NoWatch,
		Policy: h.env.Policy.Intersect(spec.Policy), MaxSteps: spec.MaxSteps, ContextWindow: set.ContextWindow,
		MicroCompactAt: set.MicroCompactAt, CompactAt: set.CompactAt,
		OnStop: spec.OnStop, OnProcessExit: spec.OnProcessExit, Logger: h.o.Logger,
		Images: attach.StoreIn(h.env.DataDir), CanSee: spec.CanSee, ConfigDir: h.env.ConfigDir}
	// Commands run under the supervisor helper, confined as the settings
	// say when each starts.
	// Their network, and web_fetch's, is one policy of the session.
	network := h.cmds.Network(id, h.Sandbox)
	opts.Processes = h.cmds.Options(proc.Options{Env: h.env.ProcEnv}, root, h.cmds.Scratch(id), h.SandboxFor(root), network)
	opts.Web = web.Config{Network: network}
	opts.Checkpoints = h.checkpoints(set.UndoStoreBytes())
	if h.mcp == nil {
		m, err := h.startServers(spec, root)
		if err != nil {
			return fail(err)
		}
		out.servers = m
		opts.Providers = m.Providers()
	}
	out.Languages, out.closeLanguages = h.languages(root, set)
	opts.Languages = out.Languages
	opts.Standing, opts.Audit, opts.Save = h.standing(spec.Workspace)
	out.Skills, opts.Workspace = h.skills(spec.Workspace, set)
	opts.Providers = append(opts.Providers, out.Skills)
	opts.Budget = h.budget(spec.Budget)
	hr, err := h.hooks(root)
	if err != nil {
		return fail(err)
	}
	opts.Hooks = hr
	s, err := runtime.New(opts)
	if err != nil {
		return fail(err)
	}
	out.Session = s
	refreshSkills(s, out.Skills)
	if h.mcp != nil {
		detach, err := h.mcp.Attach(s, root)
		if err != nil {
			h.o.Logger.Warn("MCP tools", "err", err)
		}
		out.detach = detach
		h.mcp.Tell(s, root)
	}
	ho := h.AgentHost()
	ho.Past = out.Past
	m, errs := agents.Setup(s, ho)
	h.LogAgentErrors(errs)
	out.Agents = m
	if err := h.openTeams(out, spec.Teams); err != nil {
		if spec.Teams {
			out.Close()
			return nil, fmt.Errorf("agent teams: %w", err)
		}
		h.o.Logger.Warn("agent teams", "err", err)
	}
	if h.env.OnSession != nil {
		h.env.OnSession(s)
	}
	return out, nil
}

// AgentHost is where the sessions' subagents come from: built-ins, the
// user's definitions, a trusted workspace's; a definition naming a model
// gets it on the server the settings say.
func (h *Host) AgentHost() agents.HostOptions {
	ts := trust.NewStore(h.env.ConfigDir)
	return agents.HostOptions{ConfigDir: h.env.ConfigDir, Models: h.agentModel,
		Trusted: agents.WorkspaceTrust(ts), HookTrust: ts,
		Processes: proc.Options{Env: h.env.ProcEnv}}
}

// LogAgentErrors reports the definitions that were left out.
func (h *Host) LogAgentErrors(errs []error) {
	for _, err := range errs {
		h.o.Logger.Warn("agent definition left out", "err", err)
	}
}

func (h *Host) agentModel(name string) (agent.Model, error) {
	c := ModelConfig(h.o.Settings(), h.env.MaxRetries)
	c.Model = name
	return llm.New(c)
}

// checkpoints is the undo store, opened on first use in the data folder;
// nil when sessions are not saved or it did not open (logged once).
func (h *Host) checkpoints(limit int64) *checkpoint.Store {
	if h.env.DataDir == "" {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.undo == nil && h.undoErr == nil {
		h.undo, h.undoErr = checkpoint.Open(checkpoint.Dir(filepath.Clean(h.env.DataDir)), limit)
		if h.undoErr != nil {
			h.o.Logger.Warn("undo is off: the checkpoint store did not open", "err", h.undoErr)
		}
	}
	return h.undo
}
