package gui

import (
	"gatehouse/internal/gitview"
	"gatehouse/internal/workspace"
)

// Services are what the window binds for the page: the App and its git
// service. Wails names each window.go.<package>.<Struct>; the frontend's typed
// calls (bridge/bound.gen.ts) are generated from this list.
func Services(a *App) []any { return []any{a, NewGitService(a)} }

// NewGitService is the Changes view's backend (internal/gitview), bound
// to the page beside the App: git on the open workspace, as the user's
// own action.
func NewGitService(a *App) *gitview.Service {
	return gitview.NewService(gitview.Host{
		Workspace: func() string {
			a.mu.Lock()
			defer a.mu.Unlock()
			return a.workspace
		},
		Keep: func() (gitview.Keep, error) {
			s, err := a.session()
			if err != nil {
				return nil, err
			}
			return func(paths []string, change func() error) (string, error) {
				u, err := s.RecordDiscard(paths, change)
				return string(u), err
			}, nil
		},
		Model: a.model,
		Denied: func(abs string) string {
			s, err := a.session()
			if err != nil {
				return "hidden: no session to read the policy of (" + err.Error() + ")"
			}
			return s.Workspace().Denied(abs, workspace.Read)
		},
		Settings:        a.store,
		SwitchWorkspace: a.showFolder,
		CloseFolder:     a.closeFolder,
	})
}
