package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/steer"
	"gatehouse/internal/trust"
)

// HostOptions configure a Host.
type HostOptions struct {
	// ConfigDir is Gatehouse's config folder: the user's mcp.json and the
	// trust decisions live there.
	ConfigDir string
	// EnvFunc gives the environment servers start from (nil: this
	// process's).
	EnvFunc func() []string
	// OnUpdate (may be nil) hears every change of the list; it must not
	// block.
	OnUpdate func(protocol.McpUpdatedPayload)
	Version  string
	// Confine confines the workspace's own servers (Options.Confine).
	Confine func(workspace string) Confinement
	// Ask puts a question to the user when the app cannot tell which
	// session's call caused it (Options.Ask).
	Ask steer.FormAsker
	// Proxy gives the app's proxy to browser servers (Options.Proxy);
	// AllowList says whether the network setting is the allow-list now.
	Proxy     func() (string, error)
	AllowList func() bool
}

// Host is the window's side of MCP: the servers of each open workspace
// (spaces.go), the user's config file behind the panel's edits, and the
// workspaces' trust. The panel shows and edits one workspace's servers
// (the shown tab's); edits of servers from the user's list are saved there
// (0600) and reach every open workspace; servers from other files change
// for this run only.
type Host struct {
	opts  HostOptions
	trust *trust.Store
	sp    spaces // the open workspaces' servers (spaces.go)
}

// Surface is where the host keeps its servers' providers: a session's tool
// surface (runtime.Session).
type Surface interface {
	AddProvider(tools.Provider) error
	RemoveProvider(name string) bool
}

// NewHost returns a host with no workspace open.
func NewHost(opts HostOptions) *Host {
	return &Host{opts: opts, trust: trust.NewStore(opts.ConfigDir), sp: spaces{byDir: map[string]*space{}}}
}

func (h *Host) userPath() string { return UserConfigPath(h.opts.ConfigDir) }

// Restart restarts a server.
func (h *Host) Restart(name string) error {
	m, err := h.mgr()
	if err != nil {
		return err
	}
	return m.Restart(name)
}

// SetDisabled disables or enables a server, saving it when it is the user's.
func (h *Host) SetDisabled(name string, disabled bool) error {
	m, err := h.mgr()
	if err != nil {
		return err
	}
	if err := m.SetDisabled(name, disabled); err != nil {
		return err
	}
	for _, o := range h.others(m, name, false) {
		_ = o.SetDisabled(name, disabled)
	}
	return h.save(m, name)
}

// SetToolEnabled switches one tool of a server, saving it when the server
// is the user's.
func (h *Host) SetToolEnabled(name, tool string, on bool) error {
	m, err := h.mgr()
	if err != nil {
		return err
	}
	if err := m.SetToolEnabled(name, tool, on); err != nil {
		return err
	}
	for _, o := range h.others(m, name, false) {
		_ = o.SetToolEnabled(name, tool, on)
	}
	return h.save(m, name)
}

// SetAppProxy starts a browser server with the app's proxy, or without
// it, saving it when it is the user's.
func (h *Host) SetAppProxy(name string, on bool) error {
	m, err := h.mgr()
	if err != nil {
		return err
	}
	st, err := m.Status(name)
	if err != nil {
		return err
	}
	if !st.Browser {
		return fmt.Errorf("%q is not a browser server Gatehouse knows (@playwright/mcp)", name)
	}
	for _, o := range h.everywhere(m, name, false) {
		cfg, err := o.Config(name)
		if err != nil {
			continue
		}
		cfg.AppProxy = on
		if err := o.Put(Entry{Name: name, Source: st.Source, Config: cfg}); err != nil {
			return err
		}
	}
	return h.save(m, name)
}

// others are the other open workspaces' managers a change of the user's
// server name reaches: those running it from the user's list, and with
// absent those without a server of that name (a workspace's own server of
// the same name stays as it is).
func (h *Host) others(shown *Manager, name string, absent bool) []*Manager {
	var out []*Manager
	for _, sp := range h.all() {
		if sp.m == shown {
			continue
		}
		st, err := sp.m.Status(name)
		if (err == nil && st.Source == h.userPath()) || (err != nil && absent) {
			out = append(out, sp.m)
		}
	}
	return out
}

// everywhere is the shown manager and the others a change of the user's
// server name reaches.
func (h *Host) everywhere(shown *Manager, name string, absent bool) []*Manager {
	return append([]*Manager{shown}, h.others(shown, name, absent)...)
}

// save writes the server's current configuration to the user's list when
// it came from there.
func (h *Host) save(m *Manager, name string) error {
	st, err := m.Status(name)
	if err != nil || st.Source != h.userPath() {
		return err
	}
	cfg, err := m.Config(name)
	if err != nil {
		return err
	}
	user, err := LoadFile(h.userPath())
	if err != nil {
		return err
	}
	user.Servers[name] = cfg
	return Save(h.userPath(), user)
}

// ServerConfig returns a server's configuration with secrets masked, and
// whether it is the user's (editable here).
func (h *Host) ServerConfig(name string) (ServerConfig, bool, error) {
	m, err := h.mgr()
	if err != nil {
		return ServerConfig{}, false, err
	}
	cfg, err := m.Config(name)
	if err != nil {
		return ServerConfig{}, false, err
	}
	st, _ := m.Status(name)
	return cfg.Masked(), st.Source == h.userPath(), nil
}

// PutServer adds a server to the user's list or replaces one (renaming it
// when oldName differs), keeping masked secrets as they were, saves the
// list and (re)starts the server.
func (h *Host) PutServer(oldName, name string, cfg ServerConfig) error {
	m, err := h.mgr()
	if err != nil {
		return err
	}
	if name == "" {
		return errors.New("a server needs a name")
	}
	user, err := LoadFile(h.userPath())
	if err != nil {
		return err
	}
	if old, ok := user.Servers[oldName]; ok {
		cfg = Unmask(cfg, old)
	}
	if err := cfg.Validate(); err != nil {
		return fmt.Errorf("server %q %w", name, err)
	}
	if oldName != "" && oldName != name {
		if _, taken := user.Servers[name]; taken {
			return fmt.Errorf("there is already a server called %q", name)
		}
		delete(user.Servers, oldName)
	}
	user.Servers[name] = cfg
	if err := Save(h.userPath(), user); err != nil {
		return err
	}
	if oldName != "" && oldName != name {
		for _, o := range h.everywhere(m, oldName, false) {
			_ = o.Remove(oldName)
		}
	}
	var errs []error
	for _, o := range h.everywhere(m, name, true) {
		errs = append(errs, o.Put(Entry{Name: name, Source: h.userPath(), Config: cfg}))
	}
	return errors.Join(errs...)
}

// RemoveServer removes a server from the user's list and stops it.
func (h *Host) RemoveServer(name string) error {
	m, err := h.mgr()
	if err != nil {
		return err
	}
	user, err := LoadFile(h.userPath())
	if err != nil {
		return err
	}
	if _, ok := user.Servers[name]; !ok {
		return fmt.Errorf("%q is not in your server list", name)
	}
	targets := h.everywhere(m, name, false)
	delete(user.Servers, name)
	if err := Save(h.userPath(), user); err != nil {
		return err
	}
	var errs []error
	for _, o := range targets {
		errs = append(errs, o.Remove(name))
	}
	return errors.Join(errs...)
}

// RawConfig is the user's list as JSON with secrets masked.
func (h *Host) RawConfig() (string, error) {
	user, err := LoadFile(h.userPath())
	if err != nil {
		return "", err
	}
	masked := Config{Servers: map[string]ServerConfig{}}
	for k, v := range user.Servers {
		masked.Servers[k] = v.Masked()
	}
	return string(masked.Marshal()), nil
}

// SaveRawConfig replaces the user's list with text (masked values keep
// their secrets), saves it and applies it: removed servers stop, changed
// ones restart, new ones start. Bad text changes nothing.
func (h *Host) SaveRawConfig(text string) error {
	m, err := h.mgr()
	if err != nil {
		return err
	}
	next, err := Parse([]byte(text))
	if err != nil {
		return err
	}
	user, err := LoadFile(h.userPath())
	if err != nil {
		return err
	}
	for name, cfg := range next.Servers {
		next.Servers[name] = Unmask(cfg, user.Servers[name])
	}
	if err := Save(h.userPath(), next); err != nil {
		return err
	}
	for name := range user.Servers {
		if _, ok := next.Servers[name]; !ok {
			for _, o := range h.everywhere(m, name, false) {
				_ = o.Remove(name)
			}
		}
	}
	var errs []error
	for _, e := range next.Entries(h.userPath()) {
		old, had := user.Servers[e.Name]
		if had && sameConfig(old, e.Config) {
			continue
		}
		for _, o := range h.everywhere(m, e.Name, true) {
			errs = append(errs, o.Put(e))
		}
	}
	return errors.Join(errs...)
}

func sameConfig(a, b ServerConfig) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// TrustWorkspace trusts the workspace's server list as it was shown and
// starts its servers. When the file changed since, nothing is trusted and
// the new content is shown for review.
func (h *Host) TrustWorkspace() error {
	sp := h.shown()
	var u *Untrusted
	if sp != nil {
		h.sp.mu.Lock()
		u = sp.untrusted
		h.sp.mu.Unlock()
	}
	if u == nil {
		return errors.New("there is no workspace server list waiting for trust")
	}
	if err := h.trust.TrustShown(u.Folder, trust.KindMCP, u.Content.Hash); errors.Is(err, trust.ErrChanged) {
		src, _ := LoadSources(h.opts.ConfigDir, u.Folder, nil, h.trust)
		h.sp.mu.Lock()
		sp.untrusted = src.Untrusted
		h.sp.mu.Unlock()
		h.publish()
		return fmt.Errorf("%s changed since it was shown: review it again", WorkspaceConfig)
	} else if err != nil {
		return err
	}
	h.sp.mu.Lock()
	sp.untrusted = nil
	h.sp.mu.Unlock()
	for _, e := range u.Config.Entries(WorkspaceConfig) {
		if err := sp.m.Put(e); err != nil {
			return err
		}
	}
	h.publish()
	return nil
}

// Recheck reads every open workspace's trust again (after the user revoked
// one in Settings): servers of a list that is no longer trusted stop and
// leave its sessions, and the list waits for trust again.
func (h *Host) Recheck() error {
	var errs []error
	for _, sp := range h.all() {
		errs = append(errs, h.recheck(sp))
	}
	h.publish()
	return errors.Join(errs...)
}

func (h *Host) recheck(sp *space) error {
	src, err := LoadSources(h.opts.ConfigDir, sp.dir, nil, h.trust)
	if err != nil {
		return err
	}
	keep := map[string]bool{}
	for _, e := range src.Entries {
		if fromWorkspace(e.Source) {
			keep[e.Name] = true
		}
	}
	for _, st := range sp.m.Statuses() {
		if fromWorkspace(st.Source) && !keep[st.Name] {
			_ = sp.m.Remove(st.Name)
		}
	}
	h.sp.mu.Lock()
	sp.untrusted = src.Untrusted
	h.sp.mu.Unlock()
	return nil
}

// ClaudeImportAvailable reports whether Claude Desktop's config exists.
func (h *Host) ClaudeImportAvailable() bool {
	p, err := ClaudeDesktopConfigPath()
	if err != nil {
		return false
	}
	_, err = os.Stat(p)
	return err == nil
}

// ImportClaude adds Claude Desktop's servers the user does not have yet to
// the user's list and starts them; it returns their names.
func (h *Host) ImportClaude() ([]string, error) {
	p, err := ClaudeDesktopConfigPath()
	if err != nil {
		return nil, err
	}
	from, err := LoadFile(p)
	if err != nil {
		return nil, err
	}
	user, err := LoadFile(h.userPath())
	if err != nil {
		return nil, err
	}
	next, added := Import(user, from)
	if len(added) == 0 {
		return nil, nil
	}
	if err := Save(h.userPath(), next); err != nil {
		return nil, err
	}
	var errs []error
	if m := h.manager(); m != nil {
		for _, name := range added {
			for _, o := range h.everywhere(m, name, true) {
				errs = append(errs, o.Put(Entry{Name: name, Source: h.userPath(), Config: next.Servers[name]}))
			}
		}
	}
	return added, errors.Join(errs...)
}
