// Package runtime assembles a session of the agent: the one place where a
// workspace, a model, the built-in tools and the providers added at run
// time, the approval gate, the file-change recorder, the process registry,
// the turn controller and the session log are put together. Every host (the
// window, `gatehouse exec`, later an ACP server and child sessions) calls
// New; none builds a router or an agent itself. Hosts differ only in how
// they ask (their approval.Gateway) and how they show (their event sink).
//
// # What a host supplies
//
// Options: the workspace, the model, a gateway factory (how this host asks
// the user), the approval mode (read at every call), where events go, and
// optionally a session log (and the saved session being resumed), the live
// watch of the workspace, tool providers, a policy and a parent session.
//
// Events go one of two ways. A host with one session (exec, ACP, a child's
// own stream) gives a Sink: the session runs its own events.Bus over the
// sink and its snapshot state, and closes it on Close. A host whose event
// stream outlives its sessions (the window: one gap-free seq across session
// switches and file-watch events) gives Events, its bus, and must hand every
// event that bus delivers to Session.Emit, which keeps the snapshot.
//
// # What Close releases
//
// Close, idempotent and safe from any goroutine: a waiting approval is
// rejected (when the gateway has a Close method), the running turn is
// cancelled and awaited, every process the session started is killed (whole
// groups) and its last events delivered, the processes are saved with the
// session log and the log closed, the watcher the session opened itself is
// stopped, and a bus of its own is flushed and closed. What the host gave
// (its bus, its live watch, its model client) stays the host's.
//
// # Concurrency
//
// Every method of Session is safe for concurrent use. Submit, Cancel,
// approval answers (through the host's gateway), provider changes and event
// delivery may run at the same time. Emit takes only the snapshot state's
// and the log's locks, so a host's sink may call it while its bus's lock is
// held; a host keeps its own locks out of its sink (the window reads its
// sessions from an atomic list there) and there is no lock-order cycle.
package runtime

import (
	"errors"
	"fmt"
	"gatehouse/internal/hooks"
	"log/slog"
	"os"
	"path/filepath"

	"gatehouse/internal/agent"
	"gatehouse/internal/approval"
	"gatehouse/internal/budget"
	"gatehouse/internal/checkpoint"
	"gatehouse/internal/events"
	"gatehouse/internal/images"
	"gatehouse/internal/instructions"
	"gatehouse/internal/lsp"
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/builtin"
	"gatehouse/internal/tools/files"
	"gatehouse/internal/tools/steer"
	"gatehouse/internal/tools/web"
	"gatehouse/internal/watch"
	"gatehouse/internal/workspace"
)

// OutputCap is the hard ceiling on one call's result as the model reads it.
const OutputCap = 256 << 10

// ProcessTail is how much output of each process a session log keeps.
const ProcessTail = 64 << 10

// Publisher is a host's event stream; *events.Bus implements it.
type Publisher interface {
	Publish(protocol.Event)
	// Flush delivers what is pending (coalesced events) before it returns.
	Flush()
	// LastSeq is the seq of the last delivered event.
	LastSeq() uint64
}

// Options is what a host gives New. Workspace, Model, Gateway, Mode and one
// of Events and Sink are required; a child (Parent set) takes its parent's
// gateway and mode instead.
type Options struct {
	// ID is the session's id; "" makes a new one (session.NewID).
	ID string
	// Workspace is the boundary every tool goes through.
	Workspace *workspace.Workspace
	// Model streams the model's answers (an *llm.Client, an *llm.Live).
	Model agent.Model
	// Gateway returns how this host asks the user, for the session's id;
	// pub is the session's event stream (the gate publishes the approval
	// events there itself; a gateway may flush it). When the gateway has a
	// Close method, Close calls it: a waiting request then ends rejected.
	Gateway func(sessionID string, pub approval.Publisher) approval.Gateway
	// Asker puts the model's ask_user questions to the user (nil: no one
	// can answer; the tool says so). A child asks through its parent's.
	Asker steer.Asker
	// Mode is the approval mode, read at every call, so a switch applies
	// to the next call.
	Mode func() approval.Mode

	// Events is a host's stream shared by its sessions; the host hands each
	// delivered event to Session.Emit. Sink is a one-session host's output:
	// the session runs its own bus over it. Give one of them.
	Events Publisher
	Sink   events.Sink

	// Log is the session's log (nil: not saved); Close closes it. The
	// session writes it off the event delivery, in batches (session.Queue:
	// a crash loses at most the last batch). Past,
	// with Log, is the saved session being resumed: its transcript, history,
	// turn count and processes come back.
	Log  *session.Log
	Past *session.Loaded

	// Files is the live watch of the workspace the host shares between its
	// sessions (the window's). nil: the session watches the workspace
	// itself, without publishing fs.changed, and stops on Close. Either
	// way it feeds the file-change recorder, the notes about files the
	// agent read that changed outside, and the approval dialog's staleness.
	Files *watch.Live
	// NoWatch runs without any watching (no recorder, no notes).
	NoWatch bool
	// Checkpoints is the undo store (nil: the session keeps no
	// checkpoints and cannot undo). The session records every file tool
	// call's prior content in it, and the changes its commands made.
	Checkpoints *checkpoint.Store

	// Providers join the tool surface from the start (AddProvider later).
	Providers []tools.Provider
	// Policy limits the tools of the session (zero: all). With a Parent,
	// the session gets Policy ∩ the parent's.
	Policy tools.Policy
	// Parent is the session this one works for (a child session); nil for
	// a host's main session. A child shares its parent's approval gate: the
	// same gateway, rules, approval ids and log of decisions, so a rule
	// made from a child's dialog covers the parent's calls too (Gateway is
	// then not called, and Close leaves the parent's gateway open).
	Parent *Session
	// Standing returns the standing policy's rules, read at every call
	// (approval.Config.Standing); Audit hears every call decided without a
	// person (approval.Config.Audit). Both may be nil; a child uses its
	// parent's gate and so its parent's.
	Standing func() []approval.StandingRule
	Audit    func(approval.AuditEntry)
	// Hooks are the user's hooks (nil: none); the session sets their
	// session id, transcript and mode, and runs them as the hooks stage.
	Hooks *hooks.Runner
	// AgentHooks (a child's; may be nil) returns the hooks of its agent
	// definition, asked before every run: they run for this session's
	// calls and its end (SubagentStop) only, beside its parent's hooks.
	AgentHooks func() []hooks.Hook
	// Save saves an "always allow" rule (approval.Config.Save; nil: it
	// lasts for the session).
	Save func(protocol.Rule, string) (approval.StandingRule, error)
	// Agent names a child's agent as its approval requests show it
	// ("explore", "general › explore"); "" for a main session.
	Agent string

	// Processes configures the process registry (Env, Shell, the supervisor
	// and sandbox); a child ignores it and runs as its parent does. Its
	// Observer is the session's. OnProcessExit hears each process that
	// ended, after its event was published.
	Processes     proc.Options
	OnProcessExit func(protocol.ProcessInfo)

	// Instructions are added to the system prompt (an agent definition's
	// body).
	Instructions string
	// ConfigDir is Gatehouse's config folder, whose AGENTS.md the user
	// wrote for every workspace ("": none; a child takes its parent's).
	ConfigDir string

	// MaxSteps, ContextWindow (the fallback when the server does not say)
	// and the compaction thresholds (percent of the window) tune the agent
	// (zero: its defaults).
	MaxSteps       int
	ContextWindow  int
	MicroCompactAt int
	CompactAt      int
	// OnStop hears each turn's outcome after it stopped.
	OnStop func(agent.Outcome)
	// Logger hears approvals and failures to write the log (nil: none).
	Logger *slog.Logger
	// Images is the image store of the data folder: view_image saves what
	// it shows there, and a resumed session's images are read from it
	// (nil: images are not saved). A child session inherits its parent's.
	Images *images.Store
	// CanSee reports whether the model takes images now (nil: it does
	// not; no image is sent and view_image is not offered). A child
	// session inherits its parent's.
	CanSee func() bool
	// Web configures web_fetch: its network policy, shared with the
	// session's commands. A child session inherits its parent's.
	Web web.Config
	// Budget prices the session's model requests and holds them to the
	// user's limits (budget.Options; its Session and OnChange are the
	// session's). nil: nothing is priced or limited. A child session
	// shares its parent's meter and ignores it.
	Budget *budget.Options
	// Languages is the session's language servers (nil: none; a child
	// uses its parent's): their read-only tools (diagnostics, definition,
	// references) join the surface, every applied edit's result ends with
	// the diagnostics it introduced or fixed, and the watcher's changes
	// reach them. The host closes it after the session.
	Languages *lsp.Manager
}

// New assembles a session. On error nothing is left running, and the log,
// if one was given, is left to the host to close.
func New(o Options) (*Session, error) {
	switch {
	case o.Workspace == nil:
		return nil, errors.New("runtime: no workspace")
	case o.Model == nil:
		return nil, errors.New("runtime: no model")
	case o.Parent == nil && (o.Gateway == nil || o.Mode == nil):
		return nil, errors.New("runtime: no approval gateway or mode")
	case (o.Events == nil) == (o.Sink == nil):
		return nil, errors.New("runtime: give either Events or Sink")
	case o.Past != nil && o.Log == nil:
		return nil, errors.New("runtime: resuming needs the session's log")
	}
	if o.Parent != nil {
		o.Mode = o.Parent.mode // one gate: the session's mode
	}
	if o.ID == "" {
		o.ID = session.NewID()
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Session{id: o.ID, ws: o.Workspace, log: o.Log, logger: o.Logger, parent: o.Parent, policy: o.Policy,
		model: o.Model, mode: o.Mode, agentName: o.Agent}
	if o.Log != nil {
		s.logq = o.Log.Queue()
	}
	if o.Parent != nil && o.ConfigDir == "" {
		o.ConfigDir = o.Parent.configDir
	}
	s.configDir, s.ins = o.ConfigDir, instructions.New(o.Workspace.Root(), o.ConfigDir)
	// elsewhere: a child whose workspace is not its parent's (a teammate
	// in its own worktree) takes neither the parent's language servers nor
	// its undo store, which are bound to the parent's folder.
	elsewhere := false
	if o.Parent != nil {
		s.policy = o.Policy.Intersect(o.Parent.policy)
		s.depth = o.Parent.depth + 1
		elsewhere = o.Workspace.Root() != o.Parent.ws.Root()
	}
	s.state = session.NewState(s.id, s.restoredItems(o.Past), s.logItem)
	if o.Events != nil {
		s.pub = o.Events
	} else {
		s.bus = events.New(events.Fanout(o.Sink, s.state), events.Options{})
		s.pub = s.bus
	}
	s.state.SetLastSeq(s.pub.LastSeq())

	s.files = o.Files
	if s.files == nil && !o.NoWatch {
		live, err := watch.OpenLive(s.ws.Root(), watch.LiveOptions{Log: o.Logger})
		if err != nil {
			o.Logger.Warn("the session runs without watching the workspace", "err", err)
		} else {
			s.files, s.ownFiles = live, true
		}
	}

	// A child's commands run as its parent's do: under the same supervisor
	// and sandbox, whatever its host passed (a child never runs looser).
	po := o.Processes
	if o.Parent != nil {
		po = o.Parent.procOpts
		if elsewhere && po.SandboxFor != nil {
			// A child bound to another folder (a teammate in its own
			// worktree): its commands are granted that folder, not the
			// parent's.
			po.Sandbox = po.SandboxFor(s.ws.Root())
		}
	}
	s.procOpts = po
	po.Observer = session.ProcEvents{Events: s.pub, SessionID: s.id, OnExit: o.OnProcessExit}
	s.procs = proc.NewRegistry(po)
	if o.Parent != nil {
		if o.Images == nil {
			o.Images = o.Parent.images
		}
		if o.CanSee == nil {
			o.CanSee = o.Parent.canSee
		}
		if o.Web.Network == nil {
			o.Web = o.Parent.web
		}
	}
	s.web = o.Web
	s.openBudget(o)
	s.images, s.canSee = o.Images, o.CanSee
	s.todos = &steer.Todos{}
	s.asker = o.Asker
	if o.Parent != nil {
		s.asker = o.Parent.asker
	}
	s.langs = o.Languages
	if s.langs == nil && o.Parent != nil && !elsewhere {
		s.langs = o.Parent.langs
	}
	builtins := append(builtin.ToolsWith(s.ws, s.procs, o.Web), steer.ProposePlan{}, steer.TodoWrite{List: s.todos}, steer.AskUser{Asker: s.asker, Asking: s.askingUser}, files.NewViewImage(s.ws, o.Images))
	if s.langs != nil {
		builtins = append(builtins, lsp.Tools(s.langs, s.ws)...)
	}
	surface, err := tools.NewSurface(builtins...)
	if err == nil {
		for _, p := range o.Providers {
			if err = surface.AddProvider(p); err != nil {
				break
			}
		}
	}
	if err != nil {
		s.release(false)
		return nil, fmt.Errorf("runtime: %w", err)
	}
	s.surface = surface

	if err := s.openCheckpoints(o.Checkpoints); err != nil {
		s.release(false)
		return nil, fmt.Errorf("runtime: %w", err)
	}
	if o.Parent != nil && o.Parent.undo != nil && s.undo == nil && !elsewhere {
		// A child's file changes are its parent's to take back: recorded in
		// the parent's store, under the main session's turn that was
		// running when the child started (the turn marker that offers undo).
		s.undo, s.undoTurn = o.Parent.undo, o.Parent.ownerTurn()
	}
	s.openGate(o, elsewhere)
	s.feedLanguages()
	s.tellProblems()
	s.hooks = s.hookRunner(o)
	s.stages = s.chain()
	mws := make([]tools.Middleware, len(s.stages))
	for i, st := range s.stages {
		mws[i] = st.mw
	}
	s.router = tools.NewRouter(surface, s.policy, mws...)
	s.router.Narrow = s.modePolicy
	s.router.Scope = s.scope
	ac := agent.Config{Model: o.Model, Tools: s.router, Events: s.pub, SessionID: s.id,
		System: agent.SystemPromptWith(s.ws.Root(), s.ins) + roleText(o.Instructions), MaxSteps: o.MaxSteps, ContextWindow: o.ContextWindow,
		MicroCompactAt: o.MicroCompactAt, CompactAt: o.CompactAt}
	if s.meter != nil {
		ac.Budget = s.meter
	}
	ac.Notes, ac.CanSee = s.notes, o.CanSee
	if o.Images != nil {
		ac.LoadImage = func(id string) ([]byte, error) {
			data, _, err := o.Images.Get(id)
			return data, err
		}
	}
	ac.Kept = s.kept
	ac.BeforeCompact = s.beforeCompact
	s.agent = agent.New(ac)
	s.ctrl = session.NewController(s.id, s.agent, s.stopped(o.OnStop))
	s.ctrl.SetAfter(s.afterTurn)
	s.restore(o.Past)
	s.startHooks(o.Past != nil)
	return s, nil
}

// OpenWorkspace opens folder dir as the boundary of a host's sessions, with
// the default protections. A host opens it once per workspace and shares it
// (the window: its watch, its viewer and every session).
func OpenWorkspace(dir string) (*workspace.Workspace, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("cannot open workspace %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("workspace %s is not a folder", dir)
	}
	return workspace.New(abs, workspace.Options{})
}

func roleText(text string) string {
	if text == "" {
		return ""
	}
	return "\n\n# Your role\n\n" + text
}
