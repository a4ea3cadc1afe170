package gui

import (
	"fmt"
	"maps"

	"gatehouse/internal/lsp"
	"gatehouse/internal/sessionhost"
	"gatehouse/internal/settings"
)

// LanguageServerView is one language server as Settings → Language servers
// shows it: its configuration in effect (the built-in one, or the user's
// entry over it), where its command was found, and its state in the open
// session.
type LanguageServerView struct {
	Name string `json:"name"`
	// Builtin: Gatehouse knows this server (gopls, typescript, pyright);
	// Configured: the settings hold an entry for it.
	Builtin    bool                    `json:"builtin"`
	Configured bool                    `json:"configured"`
	Config     settings.LanguageServer `json:"config"`
	// Path is the command found on PATH ("" when it is not installed).
	Path string `json:"path,omitempty"`
	// State is off, not found, not started (it starts on the first file
	// it checks), or the open session's: starting, ready, crashed, failed
	// or stopped. Error says why it crashed or failed, with the last lines
	// it wrote to stderr.
	State    string `json:"state"`
	Error    string `json:"error,omitempty"`
	Restarts int    `json:"restarts"`
	Confined bool   `json:"confined"`
}

// LanguageServersView lists the language servers, built-in ones first.
type LanguageServersView struct {
	Servers []LanguageServerView `json:"servers"`
}

// LanguageServers lists the language servers the settings give sessions,
// each with its state in the open session.
func (a *App) LanguageServers() (LanguageServersView, error) {
	s, err := a.store.Load()
	if err != nil {
		return LanguageServersView{Servers: []LanguageServerView{}}, fmt.Errorf("could not read the settings: %w", err)
	}
	return a.languageServers(s.LanguageServers), nil
}

func (a *App) languageServers(user map[string]settings.LanguageServer) LanguageServersView {
	states := map[string]lsp.Status{}
	if sess := a.currentSession(); sess != nil {
		for _, st := range sess.LanguageServers() {
			states[st.Name] = st
		}
	}
	builtin := map[string]bool{}
	for _, d := range lsp.Defaults() {
		builtin[d.Name] = true
	}
	env := a.loginEnv.Environ()
	out := LanguageServersView{Servers: []LanguageServerView{}}
	for _, c := range sessionhost.LanguageConfigs(user) {
		_, configured := user[c.Name]
		v := LanguageServerView{Name: c.Name, Builtin: builtin[c.Name], Configured: configured,
			Config: settings.LanguageServer{Command: c.Command, Args: c.Args, FilePatterns: c.Patterns, RootMarkers: c.RootMarkers,
				Env: c.Env, InitializationOptions: c.Options, Disabled: c.Disabled}}
		path, err := lsp.Installed(c, env)
		switch st, ok := states[c.Name]; {
		case c.Disabled:
			v.State = "off"
		case ok:
			v.State, v.Error, v.Restarts, v.Confined = string(st.State), st.Error, st.Restarts, st.Confined
		case err != nil || c.Command == "":
			v.State = "not found"
		default:
			v.State = "not started"
		}
		v.Path = path
		out.Servers = append(out.Servers, v)
	}
	return out
}

// SaveLanguageServer saves the user's entry for the language server name
// (a built-in name replaces the built-in server; its empty fields keep the
// built-in values). An entry that cannot run is refused with why, and
// nothing is saved; the settings are written atomically. Sessions opened
// after it use it.
func (a *App) SaveLanguageServer(e LanguageServerEntry) (LanguageServersView, error) {
	if err := sessionhost.CheckLanguageServer(e.Name, e.Config); err != nil {
		return a.languageServersOr(), err
	}
	return a.changeLanguageServers(func(m map[string]settings.LanguageServer) { m[e.Name] = e.Config })
}

// LanguageServerEntry is one entry of the settings' block, by name.
type LanguageServerEntry struct {
	Name   string                  `json:"name"`
	Config settings.LanguageServer `json:"config"`
}

// RemoveLanguageServer removes the user's entry for name: a built-in
// server is back to its built-in settings, another one is gone.
func (a *App) RemoveLanguageServer(name string) (LanguageServersView, error) {
	return a.changeLanguageServers(func(m map[string]settings.LanguageServer) { delete(m, name) })
}

// changeLanguageServers applies change to the saved block. Settings that
// cannot be read are left as they are (the error says so), never replaced.
func (a *App) changeLanguageServers(change func(map[string]settings.LanguageServer)) (LanguageServersView, error) {
	s, err := a.store.Load()
	if err != nil {
		return a.languageServersOr(), fmt.Errorf("could not read the settings, so nothing was saved: %w", err)
	}
	m := maps.Clone(s.LanguageServers)
	if m == nil {
		m = map[string]settings.LanguageServer{}
	}
	change(m)
	if len(m) == 0 {
		m = nil
	}
	s.LanguageServers = m
	if err := a.store.Save(s); err != nil {
		return a.languageServersOr(), fmt.Errorf("could not save the settings: %w", err)
	}
	return a.languageServers(m), nil
}

// languageServersOr is the list as saved, or an empty one.
func (a *App) languageServersOr() LanguageServersView {
	v, _ := a.LanguageServers()
	if v.Servers == nil {
		v.Servers = []LanguageServerView{}
	}
	return v
}
