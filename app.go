package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"gatehouse/internal/desktop"
	"gatehouse/internal/events"
	"gatehouse/internal/mcp"
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
	"gatehouse/internal/settings"
)

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

	mu        sync.Mutex
	workspace string
	mode      string
	sess      *liveSession
	readyOnce sync.Once
	model     *liveModel
	loginEnv  *proc.LoginEnv
	// sessions stores the session logs; nil: sessions are not saved.
	sessions *session.Store
	// closing are sessions being closed: they still get their events.
	closing  []*liveSession
	switchMu sync.Mutex // one session switch at a time
	alerts   *exitAlerts
	files    atomic.Pointer[filesWatch] // the open workspace's watcher (app_files.go)
	mcp      *mcp.Host                  // the workspace's MCP servers (app_mcp.go)
	drawn    atomic.Bool                // the page drew its first frame
}

// AppState is what the page needs to draw its frame.
type AppState struct {
	Version       string `json:"version"`
	Workspace     string `json:"workspace"`
	WorkspaceName string `json:"workspaceName"`
	ApprovalMode  string `json:"approvalMode"`
	// NeedsSetup is true while no model is configured: the page shows the
	// first-run settings screen.
	NeedsSetup bool   `json:"needsSetup"`
	Model      string `json:"model"`
	// Theme is the saved one (system, light or dark), here so the page can
	// draw its first frame in it without asking for the settings.
	Theme string `json:"theme"`
}

// NewApp builds the bound App around the settings in store.
func NewApp(started time.Time, log *slog.Logger, store *settings.Store, flags settings.Flags) *App {
	a := &App{started: started, log: log, store: store, flags: flags, mode: "safe", loginEnv: &proc.LoginEnv{}}
	a.model = &liveModel{app: a}
	a.alerts = newExitAlerts(desktop.DBusNotifier{AppName: "Gatehouse"}, log)
	a.bus = events.New(events.SinkFunc(a.deliver), events.Options{})
	a.mcp = a.newMCPHost()
	if saved, err := store.Load(); err == nil && saved.ApprovalMode != "" {
		a.mode = saved.ApprovalMode
	}
	return a
}

// deliver hands each event to the UI and to the session's state. It runs
// under the bus's lock, so it only passes events on.
func (a *App) deliver(e protocol.Event) {
	a.rt.Load().Emit(protocol.WailsEventName, e)
	for _, s := range a.listeners() {
		s.state.Emit(e)
	}
}

func (a *App) startup(ctx context.Context) {
	a.rt.Store(desktop.New(ctx))
	a.updateTitle()
}

// shutdown ends the open session: its turn is cancelled and every process it
// started is killed, whole groups included.
func (a *App) shutdown(context.Context) {
	a.mu.Lock()
	s := a.sess
	a.sess = nil
	a.mu.Unlock()
	a.closeSession(s)
	a.stopWatch()
	a.mcp.Close()
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
	return AppState{
		Version: version, Workspace: a.workspace, WorkspaceName: name, ApprovalMode: a.mode,
		NeedsSetup: eff.Settings.Model == "" || eff.Settings.BaseURL == "",
		Model:      eff.Settings.Model,
		Theme:      eff.Settings.Theme,
	}
}

// ChooseWorkspace opens the native folder dialog. A cancelled dialog keeps the
// current workspace.
func (a *App) ChooseWorkspace() (AppState, error) {
	a.mu.Lock()
	start := a.workspace
	a.mu.Unlock()
	dir, err := a.rt.Load().ChooseFolder("Choose a workspace folder", start)
	if err != nil {
		return a.State(), fmt.Errorf("could not open the folder dialog: %w", err)
	}
	if dir == "" {
		return a.State(), nil
	}
	if err := a.setWorkspace(dir); err != nil {
		return a.State(), err
	}
	return a.State(), nil
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
	switch mode {
	case "manual", "safe", "auto":
	default:
		return fmt.Errorf("unknown approval mode %q: use manual, safe or auto", mode)
	}
	a.mu.Lock()
	a.mode = mode
	a.mu.Unlock()
	return nil
}

// setWorkspace opens dir: the current session closes (its turn is cancelled)
// and the folder is remembered for the next start.
func (a *App) setWorkspace(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return fmt.Errorf("cannot open workspace %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("workspace %s is not a folder", dir)
	}
	a.mu.Lock()
	old := a.sess
	a.workspace, a.sess = abs, nil
	a.mu.Unlock()
	a.closeSession(old)
	a.watchWorkspace(abs)
	a.mcpOpen(abs)
	a.saveSettings(func(s *settings.Settings) {
		s.LastWorkspace = abs
		recent := []string{abs}
		for _, w := range s.RecentWorkspaces {
			if w != abs && len(recent) < 10 {
				recent = append(recent, w)
			}
		}
		s.RecentWorkspaces = recent
	})
	a.updateTitle()
	return nil
}

// saveSettings changes the saved settings; a failure is logged, not fatal:
// the app works on, it just will not remember.
func (a *App) saveSettings(change func(*settings.Settings)) {
	s, err := a.store.Load()
	if err != nil {
		s = settings.Defaults()
	}
	before := s
	before.RecentWorkspaces = slices.Clone(s.RecentWorkspaces)
	change(&s)
	if err == nil && reflect.DeepEqual(before, s) {
		return // unchanged: no write (and no fsync) on every start
	}
	if err := a.store.Save(s); err != nil {
		a.log.Warn("could not save settings", "err", err)
	}
}

func (a *App) updateTitle() {
	st := a.State()
	title := "Gatehouse"
	if st.WorkspaceName != "" {
		title = st.WorkspaceName + " — Gatehouse"
	}
	a.rt.Load().SetTitle(a.attention.title(title))
}
