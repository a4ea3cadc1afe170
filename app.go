package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"gatehouse/internal/desktop"
)

// App is the object bound to the page: thin methods that translate types and
// hand the work to internal packages.
type App struct {
	started time.Time
	log     *slog.Logger

	mu        sync.Mutex
	rt        *desktop.Runtime
	workspace string
	mode      string
	readyOnce sync.Once
}

// AppState is what the page needs to draw its frame.
type AppState struct {
	Version       string `json:"version"`
	Workspace     string `json:"workspace"`
	WorkspaceName string `json:"workspaceName"`
	ApprovalMode  string `json:"approvalMode"`
}

// NewApp builds the bound App. workspace may be empty: the page then asks the
// user to choose a folder.
func NewApp(started time.Time, log *slog.Logger, workspace string) *App {
	return &App{started: started, log: log, workspace: workspace, mode: "safe"}
}

func (a *App) startup(ctx context.Context) {
	a.mu.Lock()
	a.rt = desktop.New(ctx)
	a.mu.Unlock()
	a.updateTitle()
}

func (a *App) shutdown(context.Context) {}

// Ready is called by the page once it has drawn its first frame. Tests and
// benchmarks wait for the line it logs.
func (a *App) Ready() {
	a.readyOnce.Do(func() {
		a.log.Info("ready", "afterMs", time.Since(a.started).Milliseconds())
	})
}

// State returns the frame's state.
func (a *App) State() AppState {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.stateLocked()
}

func (a *App) stateLocked() AppState {
	name := ""
	if a.workspace != "" {
		name = filepath.Base(a.workspace)
	}
	return AppState{Version: version, Workspace: a.workspace, WorkspaceName: name, ApprovalMode: a.mode}
}

// ChooseWorkspace opens the native folder dialog. A cancelled dialog keeps the
// current workspace.
func (a *App) ChooseWorkspace() (AppState, error) {
	a.mu.Lock()
	rt, start := a.rt, a.workspace
	a.mu.Unlock()
	dir, err := rt.ChooseFolder("Choose a workspace folder", start)
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

// SetApprovalMode switches between manual, safe and auto.
func (a *App) SetApprovalMode(mode string) (AppState, error) {
	switch mode {
	case "manual", "safe", "auto":
	default:
		return a.State(), fmt.Errorf("unknown approval mode %q: use manual, safe or auto", mode)
	}
	a.mu.Lock()
	a.mode = mode
	a.mu.Unlock()
	return a.State(), nil
}

func (a *App) setWorkspace(dir string) error {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return fmt.Errorf("cannot open workspace %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("workspace %s is not a folder", dir)
	}
	a.mu.Lock()
	a.workspace = abs
	a.mu.Unlock()
	a.updateTitle()
	return nil
}

func (a *App) updateTitle() {
	a.mu.Lock()
	rt, st := a.rt, a.stateLocked()
	a.mu.Unlock()
	title := "Gatehouse"
	if st.WorkspaceName != "" {
		title = st.WorkspaceName + " — Gatehouse"
	}
	rt.SetTitle(title)
}
