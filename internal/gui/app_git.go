package gui

import (
	"gatehouse/internal/gitview"
)

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
		Model:           a.model,
		Settings:        a.store,
		SwitchWorkspace: a.showFolder,
		CloseFolder:     a.closeFolder,
	})
}
