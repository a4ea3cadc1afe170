package gui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"

	"gatehouse/internal/hooks"
	"gatehouse/internal/protocol"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/settings"
	"gatehouse/internal/workspace"
)

// workspaceHooksFile is a workspace's own hooks, inside it.
const workspaceHooksFile = ".gatehouse/hooks.json"

// HooksView is Settings → Hooks: every hook of the user's hooks file and
// of the open workspace's, by event, with its source and whether it is
// on, and the files that could not be read (with why).
type HooksView struct {
	Hooks []hooks.HookEntry `json:"hooks"`
	// UserFile is the user's hooks file (where an import writes).
	UserFile string `json:"userFile"`
	// ClaudeFile is Claude Code's user settings file, the import's default.
	ClaudeFile string   `json:"claudeFile"`
	Errors     []string `json:"errors"`
}

func (a *App) userHooksFile() string { return filepath.Join(a.store.Dir(), sessionhost.HooksFile) }

// loadHooks reads the user's hooks, the open workspace's (listed only: a
// workspace's hooks run after the user trusts them) and those of the
// agent definitions (agentHooks), each marked off by the settings.
func (a *App) loadHooks() ([]hooks.Hook, []string) {
	var all []hooks.Hook
	var errs []string
	user, err := hooks.Load(a.userHooksFile())
	if err != nil {
		errs = append(errs, err.Error())
	}
	all = append(all, user...)
	if root := a.workspaceRoot(); root != "" {
		b, _, err := workspace.ReadInside(root, workspaceHooksFile, hooks.MaxConfigBytes)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			errs = append(errs, workspaceHooksFile+": "+err.Error())
		default:
			ws, err := hooks.Parse(b, filepath.Join(root, workspaceHooksFile))
			if err != nil {
				errs = append(errs, err.Error())
			}
			for i := range ws {
				ws[i].Scope = hooks.ScopeWorkspace
			}
			all = append(all, ws...)
		}
	}
	agent, aerrs := a.agentHooks(a.workspaceRoot())
	all, errs = append(all, agent...), append(errs, aerrs...)
	return hooks.Disable(all, a.effective().Settings.HooksOff), errs
}

// Hooks lists the hooks (read again on every call).
func (a *App) Hooks() HooksView {
	hs, errs := a.loadHooks()
	home, _ := os.UserHomeDir()
	return HooksView{Hooks: hooks.Entries(hs), UserFile: a.userHooksFile(), ClaudeFile: filepath.Join(home, ".claude", "settings.json"),
		Errors: append([]string{}, errs...)}
}

// SetHookOn turns the hook id on or off (saved; read before every run, so
// open sessions follow from their next call).
func (a *App) SetHookOn(id string, on bool) (HooksView, error) {
	hs, _ := a.loadHooks()
	if !slices.ContainsFunc(hs, func(h hooks.Hook) bool { return h.ID() == id }) {
		return HooksView{}, errors.New("no such hook: the hooks files changed; look again")
	}
	err := a.store.Update(func(s *settings.Settings) {
		s.HooksOff = slices.DeleteFunc(s.HooksOff, func(x string) bool { return x == id })
		if !on {
			s.HooksOff = append(s.HooksOff, id)
		}
	})
	if err != nil {
		return HooksView{}, err
	}
	return a.Hooks(), nil
}

// TestHook runs the user's hook id (of the hooks file or of one of the
// user's agent definitions) once on a sample of its event (a sample call
// shown to it, nothing run), in the open workspace, and reports its
// verdict, output, exit code and time. A workspace's hooks (its agent
// definitions' included) are not run from here: they run confined, in its
// sessions, once trusted.
func (a *App) TestHook(id string) (protocol.HookRun, error) {
	hs, _ := a.loadHooks()
	i := slices.IndexFunc(hs, func(h hooks.Hook) bool { return h.ID() == id })
	switch {
	case i < 0:
		return protocol.HookRun{}, errors.New("no such hook: the hooks files changed; look again")
	case hs[i].Scope == hooks.ScopeWorkspace || hs[i].Confined:
		return protocol.HookRun{}, errors.New("a workspace's hooks are not tested from here: they run confined, in its sessions, once you trust them")
	}
	return hooks.Try(context.Background(), hs[i], a.hookDir(), a.loginEnv.Environ)
}

// hookDir is where a tried hook runs: the open workspace, else home.
func (a *App) hookDir() string {
	if root := a.workspaceRoot(); root != "" {
		return root
	}
	home, _ := os.UserHomeDir()
	return home
}

// HooksImportPreview reads the hooks of Claude Code's settings file from
// ("" for ~/.claude/settings.json) and shows what importing them would
// bring, each command and what cannot come. With check, the hooks that
// fail closed here run once on a sample, and those that would now block
// (Claude Code goes on) are marked.
func (a *App) HooksImportPreview(from string, check bool) (hooks.ClaudeImport, error) {
	if from == "" {
		from = a.Hooks().ClaudeFile
	}
	im, err := hooks.ReadClaude(from, a.userHooksFile())
	if err != nil {
		return im, err
	}
	if check {
		im.Check(context.Background(), a.hookDir(), a.loginEnv.Environ)
	}
	return im, nil
}

// HooksImport writes the picked hooks of Claude Code's settings file into
// the user's hooks file, merged, atomically; bad input changes nothing.
// Sessions opened after it run them.
func (a *App) HooksImport(from string, picks []hooks.ImportPick) (HooksView, error) {
	im, err := a.HooksImportPreview(from, false)
	if err != nil {
		return HooksView{}, err
	}
	if _, err := im.Merge(picks); err != nil {
		return HooksView{}, err
	}
	return a.Hooks(), nil
}
