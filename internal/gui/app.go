package gui

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"gatehouse/internal/browse"
	"gatehouse/internal/desktop"
	"gatehouse/internal/desktop/fontstack"
	"gatehouse/internal/events"
	"gatehouse/internal/llm"
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/sandbox/host"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/settings"
	"gatehouse/internal/slash"
	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// Version is the build's version, shown in the frame; main sets it from
// its own (set at build time) before the window opens.
var Version = "dev"

// App is the object bound to the page: thin methods that translate types and
// hand the work to internal packages.
type App struct {
	started time.Time
	log     *slog.Logger
	store   *settings.Store
	flags   settings.Flags
	bus     *events.Bus
	rt      atomic.Pointer[desktop.Runtime]
	// attention marks the title while an approval waits (app_attention.go).
	attention attention

	// kit opens the sessions (the host recipe): their logs, checkpoints,
	// supervisor and sandbox, MCP servers and agents.
	kit *sessionhost.Host
	// openMu is held while a session opens or the workspace switches, so
	// a session never opens with a half-switched folder; mu is not held
	// meanwhile (the gate reads the mode under it on every call).
	openMu sync.Mutex

	mu sync.Mutex
	// tabs are the open sessions in the order they were opened; cur is the
	// one shown, whose session and folder are sess, workspace and ws
	// (app_tabs.go).
	tabs      []*tab
	cur       *tab
	workspace string
	ws        *workspace.Workspace // the boundary of workspace, opened once
	mode      protocol.ApprovalMode
	sess      *runtime.Session
	readyOnce sync.Once
	model     *llm.Live
	loginEnv  *proc.LoginEnv
	// closing are sessions being closed: they still get their events.
	closing []*runtime.Session
	// listening is closing plus sess, for deliver, which runs under the
	// bus's lock and so must not take mu (app_sessions.go).
	listening atomic.Pointer[[]*runtime.Session]
	// background are the sessions of the tabs not shown, by id, for
	// deliver: their approval requests send a desktop notification.
	background   atomic.Pointer[map[string]bool]
	switchMu     sync.Mutex // one session switch at a time
	alerts       *desktop.ExitAlerts
	policy       tools.Policy                     // the sessions' tools (zero: all, the main agent's)
	files        atomic.Pointer[browse.Workspace] // the open workspace's watch and viewer (app_files.go)
	drawn        atomic.Bool                      // the page drew its first frame
	managers     sync.Map                         // session id → its *agents.Manager (app_agents.go)
	hosted       sync.Map                         // session id → its *sessionhost.Session (app_team.go)
	titles       sync.Map                         // session id → its tab's title, once it has one (app_tabs.go)
	drops        heldDrops                        // refused drops, for a retry (app_drop_held.go)
	fonts        *fontstack.Resolver              // the page's font stacks, as the window resolves them (app_fonts.go)
	slash        *slash.Registry                  // the composer's "/" entries (app_commands.go)
	savedTabs    *tabsSaver                       // the open tabs, kept for the next start (app_tabs_saved.go)
	mentionIndex mentionIndex                     // the @ list's paths (app_mentions.go)
}

// AppState is what the page needs to draw its frame.
type AppState struct {
	Version       string                `json:"version"`
	Workspace     string                `json:"workspace"`
	WorkspaceName string                `json:"workspaceName"`
	ApprovalMode  protocol.ApprovalMode `json:"approvalMode"`
	// NeedsSetup is true while no model is configured: the page shows the
	// first-run settings screen.
	NeedsSetup bool   `json:"needsSetup"`
	Model      string `json:"model"`
	// Theme is the saved one (system, light or dark), here so the page can
	// draw its first frame in it without asking for the settings.
	Theme string `json:"theme"`
	// Unconfined says why commands do not run confined ("" while they
	// do); the header shows a badge while it is set. SandboxOff: because
	// the user turned the sandbox off.
	Unconfined string `json:"unconfined,omitempty"`
	SandboxOff bool   `json:"sandboxOff,omitempty"`
	// PanelWidths are the side panels' saved widths (SetPanelWidth).
	PanelWidths map[string]int `json:"panelWidths,omitempty"`
}

// NewApp builds the bound App around the settings in store; sessions are
// saved in dataDir ("": not saved, no undo).
func NewApp(started time.Time, log *slog.Logger, store *settings.Store, flags settings.Flags, dataDir string) *App {
	a := &App{started: started, log: log, store: store, flags: flags, mode: protocol.ApprovalSafe, loginEnv: &proc.LoginEnv{}, fonts: fontstack.New()}
	a.cur = &tab{}
	a.tabs = []*tab{a.cur}
	a.model = llm.NewLive(a.modelConfig)
	a.slash = a.newSlash()
	a.savedTabs = newTabsSaver(dataDir, func(err error) { log.Warn("could not save the open tabs", "err", err) })
	a.alerts = desktop.NewExitAlerts(desktop.DBusNotifier{AppName: "Gatehouse"}, log)
	a.bus = events.New(events.SinkFunc(a.deliver), events.Options{})
	a.kit = sessionhost.New(sessionhost.Env{ConfigDir: store.Dir(), DataDir: dataDir, LookupEnv: os.LookupEnv,
		MaxRetries: llm.DefaultMaxRetries, ProcEnv: a.loginEnv.Environ, Version: Version},
		sessionhost.Options{Settings: a.effective, Logger: log, OnMCPUpdate: func(p protocol.McpUpdatedPayload) {
			a.bus.Publish(protocol.Event{Type: protocol.McpUpdated, Payload: p})
		}, MCPAsk: windowAsker{a}})
	if saved, err := store.Load(); err == nil && saved.ApprovalMode != "" {
		a.mode = protocol.ApprovalMode(saved.ApprovalMode) // Load checked it
	}
	return a
}

// deliver hands each event to the UI and to the sessions' states. It runs
// under the bus's lock, so it only passes events on and takes no lock of
// the App's.
func (a *App) deliver(e protocol.Event) {
	a.rt.Load().Emit(protocol.WailsEventName, e)
	if l := a.listening.Load(); l != nil {
		for _, s := range *l {
			s.Emit(e)
		}
	}
	// A background tab's request or question notifies naming its session
	// (the page badges the tab); what waits in any tab marks the window.
	bg := a.background.Load()
	shown := bg == nil || !(*bg)[e.SessionID]
	if !shown {
		if body := backgroundWait(e); body != "" {
			go a.notifyBackground(e.SessionID, body)
		}
	}
	if a.attention.observe(e, shown) {
		a.attend()
	}
}

func (a *App) startup(ctx context.Context) {
	rt := desktop.New(ctx)
	a.rt.Store(rt)
	rt.OnFileDrop(a.filesDropped)
	a.updateTitle()
}

// shutdown ends the open sessions: their turns are cancelled and every
// process they started is killed, whole groups included.
func (a *App) shutdown(context.Context) {
	a.mu.Lock()
	a.saveShownLocked()
	a.savedTabs.final(a.tabsStateLocked())
	var open []*runtime.Session
	var watches []*browse.Workspace
	for _, t := range a.tabs {
		if t.sess != nil {
			open = append(open, t.sess)
		}
		if t.files != nil && !slices.Contains(watches, t.files) {
			watches = append(watches, t.files)
		}
		t.sess, t.files = nil, nil
	}
	a.tabs = []*tab{a.cur}
	a.files.Store(nil)
	a.setSessionLocked(nil)
	a.mu.Unlock()
	for _, s := range open {
		a.closeSession(s)
	}
	for _, w := range watches {
		w.Stop()
	}
	a.kit.Close() // a clean exit: nothing of this run is left over
	a.bus.Close()
}

// Ready is called by the page once it has drawn its first frame. Tests and
// benchmarks wait for the line it logs.
func (a *App) Ready() {
	a.readyOnce.Do(func() {
		a.log.Info("ready", "afterMs", time.Since(a.started).Milliseconds())
		// Read the login shell's environment now, off the first command's path.
		go a.loginEnv.Environ()
		a.mcpReady()
	})
}

// beforeClose asks before quitting while processes run, naming them. It
// returns true to keep the window open.
func (a *App) beforeClose(context.Context) bool {
	running := a.RunningProcesses()
	if len(running) == 0 {
		return false
	}
	msg := "These processes are still running and will be stopped:\n"
	for _, p := range running {
		msg += "\n• " + p.Command
	}
	return !a.rt.Load().Confirm("Quit Gatehouse?", msg, "Stop them and quit", "Cancel")
}

// State returns the frame's state.
func (a *App) State() AppState {
	eff := a.effective()
	a.mu.Lock()
	defer a.mu.Unlock()
	name := ""
	if a.workspace != "" {
		name = filepath.Base(a.workspace)
	}
	st := AppState{
		Version: Version, Workspace: a.workspace, WorkspaceName: name, ApprovalMode: a.mode,
		NeedsSetup:  eff.Settings.Model == "" || eff.Settings.BaseURL == "",
		Model:       eff.Settings.Model,
		Theme:       eff.Settings.Theme,
		PanelWidths: eff.Settings.PanelWidths,
	}
	sb := a.kit.Commands().Status(host.Config{Mode: eff.Settings.Sandbox})
	st.Unconfined, st.SandboxOff = sb.Reason, sb.Mode == sandbox.ModeOff
	return st
}

func (a *App) updateTitle() {
	st := a.State()
	title := "Gatehouse"
	if st.WorkspaceName != "" {
		title = st.WorkspaceName + " — Gatehouse"
	}
	a.rt.Load().SetTitle(a.attention.title(title))
}
