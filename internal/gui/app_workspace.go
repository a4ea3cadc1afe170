package gui

import (
	"fmt"

	"gatehouse/internal/runtime"
	"gatehouse/internal/settings"
)

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
	if dir == "" || !a.confirmWorkspace(dir) {
		return a.State(), nil
	}
	if err := a.setWorkspace(dir); err != nil {
		return a.State(), err
	}
	return a.State(), nil
}

// setWorkspace opens dir: the current session closes (its turn is cancelled)
// and the folder is remembered for the next start.
func (a *App) setWorkspace(dir string) error {
	ws, err := runtime.OpenWorkspace(dir)
	if err != nil {
		return err
	}
	abs := ws.Root()
	// One step for a session that opens meanwhile (it waits on openMu):
	// the folder, its watch and its MCP servers change together.
	a.openMu.Lock()
	a.mu.Lock()
	old := a.sess
	a.workspace, a.ws = abs, ws
	a.setSessionLocked(nil)
	a.mu.Unlock()
	a.closeSession(old)
	a.watchWorkspace(ws)
	a.mcpOpen(ws.Root())
	a.openMu.Unlock()
	a.saveSettings(func(s *settings.Settings) { s.RememberWorkspace(abs) })
	a.updateTitle()
	return nil
}

// saveSettings changes the saved settings; a failure is logged, not fatal:
// the app works on, it just will not remember.
func (a *App) saveSettings(change func(*settings.Settings)) {
	if err := a.store.Update(change); err != nil {
		a.log.Warn("could not save settings", "err", err)
	}
}
