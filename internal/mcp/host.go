package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

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
}

// Host is the window's side of MCP: the servers of the open workspace, the
// user's config file behind the panel's edits, and the workspace's trust.
// Edits of servers from the user's list are saved there (0600); servers
// from other files change for this run only.
type Host struct {
	opts  HostOptions
	trust *trust.Store

	mu        sync.Mutex
	workspace string
	m         *Manager
	untrusted *Untrusted
	problem   string

	attachMu sync.Mutex
	surface  Surface
	attached map[string]tools.Provider // by provider name
}

// Surface is where the host keeps its servers' providers: the open
// session's tool surface (runtime.Session).
type Surface interface {
	AddProvider(tools.Provider) error
	RemoveProvider(name string) bool
}

// NewHost returns a host with no workspace open.
func NewHost(opts HostOptions) *Host {
	return &Host{opts: opts, trust: trust.NewStore(opts.ConfigDir)}
}

func (h *Host) userPath() string { return UserConfigPath(h.opts.ConfigDir) }

// Open loads the servers of workspace (closing the previous workspace's);
// nothing starts before Start.
func (h *Host) Open(workspace string) error {
	h.attachMu.Lock()
	h.surface, h.attached = nil, nil // a new folder's session attaches anew
	h.attachMu.Unlock()
	src, err := LoadSources(h.opts.ConfigDir, workspace, nil, h.trust)
	m := NewManager(Options{Workspace: workspace, EnvFunc: h.opts.EnvFunc, Version: h.opts.Version, OnChange: h.publish,
		Confine: h.opts.Confine, Ask: h.opts.Ask}, src.Entries)
	problem := ""
	if err != nil {
		problem = err.Error() + " (fix the file; its servers do not run meanwhile)"
	}
	for _, r := range src.Refused {
		problem = strings.TrimSpace(problem + " " + r.Reason + ": its servers do not run.")
	}
	h.mu.Lock()
	old := h.m
	h.workspace, h.m, h.untrusted, h.problem = workspace, m, src.Untrusted, problem
	h.mu.Unlock()
	if old != nil {
		old.Close()
	}
	h.publish()
	return err
}

// Start starts the open workspace's servers in the background.
func (h *Host) Start() {
	if m := h.manager(); m != nil {
		m.Start()
	}
}

func (h *Host) manager() *Manager {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.m
}

func (h *Host) mgr() (*Manager, error) {
	if m := h.manager(); m != nil {
		return m, nil
	}
	return nil, errors.New("choose a workspace folder first")
}

// Providers are the open workspace's servers as tool providers.
func (h *Host) Providers() []tools.Provider {
	if m := h.manager(); m != nil {
		return m.Providers()
	}
	return nil
}

// Starting names the servers still starting: a turn that begins now runs
// without their tools.
func (h *Host) Starting() []string {
	var out []string
	for _, s := range h.List().Servers {
		if s.State == StateStarting {
			out = append(out, s.Name)
		}
	}
	return out
}

// List is the panel's list.
func (h *Host) List() protocol.McpUpdatedPayload {
	h.mu.Lock()
	m, u, problem := h.m, h.untrusted, h.problem
	h.mu.Unlock()
	p := protocol.McpUpdatedPayload{Servers: []protocol.McpServer{}, Problem: problem}
	if m != nil {
		p.Servers = append(p.Servers, m.Statuses()...)
	}
	if u != nil {
		p.Untrusted = &protocol.McpUntrusted{File: WorkspaceConfig, Lines: u.Lines, Servers: u.Servers}
	}
	return p
}

// Attach makes s the surface the servers' providers join (replacing the
// one attached before): every server's provider now, and each server added
// or removed later. A server's tools are on it while the server is ready.
func (h *Host) Attach(s Surface) error {
	h.attachMu.Lock()
	h.surface, h.attached = s, map[string]tools.Provider{}
	h.attachMu.Unlock()
	return h.sync()
}

// sync adds the providers of servers the attached surface lacks and removes
// those of servers gone.
func (h *Host) sync() error {
	h.attachMu.Lock()
	defer h.attachMu.Unlock()
	if h.surface == nil {
		return nil
	}
	now := map[string]tools.Provider{}
	for _, p := range h.Providers() {
		now[p.Name()] = p
	}
	for name, p := range h.attached {
		if q, ok := now[name]; !ok || q != p {
			h.surface.RemoveProvider(name)
			delete(h.attached, name)
		}
	}
	var errs []error
	for name, p := range now {
		if _, ok := h.attached[name]; ok {
			continue
		}
		if err := h.surface.AddProvider(p); err != nil {
			errs = append(errs, err)
			continue
		}
		h.attached[name] = p
	}
	return errors.Join(errs...)
}

func (h *Host) publish() {
	_ = h.sync()
	if h.opts.OnUpdate != nil {
		h.opts.OnUpdate(h.List())
	}
}

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
	return h.save(m, name)
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
		_ = m.Remove(oldName)
	}
	return m.Put(Entry{Name: name, Source: h.userPath(), Config: cfg})
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
	delete(user.Servers, name)
	if err := Save(h.userPath(), user); err != nil {
		return err
	}
	return m.Remove(name)
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
			_ = m.Remove(name)
		}
	}
	for _, e := range next.Entries(h.userPath()) {
		old, had := user.Servers[e.Name]
		if had && sameConfig(old, e.Config) {
			continue
		}
		if err := m.Put(e); err != nil {
			return err
		}
	}
	return nil
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
	h.mu.Lock()
	u, m := h.untrusted, h.m
	h.mu.Unlock()
	if u == nil || m == nil {
		return errors.New("there is no workspace server list waiting for trust")
	}
	if err := h.trust.TrustShown(u.Folder, trust.KindMCP, u.Content.Hash); errors.Is(err, trust.ErrChanged) {
		src, _ := LoadSources(h.opts.ConfigDir, u.Folder, nil, h.trust)
		h.mu.Lock()
		h.untrusted = src.Untrusted
		h.mu.Unlock()
		h.publish()
		return fmt.Errorf("%s changed since it was shown: review it again", WorkspaceConfig)
	} else if err != nil {
		return err
	}
	h.mu.Lock()
	h.untrusted = nil
	h.mu.Unlock()
	for _, e := range u.Config.Entries(WorkspaceConfig) {
		if err := m.Put(e); err != nil {
			return err
		}
	}
	h.publish()
	return nil
}

// Recheck reads the open workspace's trust again (after the user revoked
// it in Settings): servers of its list that are no longer trusted stop and
// leave the surface, and the list waits for trust again.
func (h *Host) Recheck() error {
	h.mu.Lock()
	ws, m := h.workspace, h.m
	h.mu.Unlock()
	if m == nil || ws == "" {
		return nil
	}
	src, err := LoadSources(h.opts.ConfigDir, ws, nil, h.trust)
	if err != nil {
		return err
	}
	keep := map[string]bool{}
	for _, e := range src.Entries {
		if fromWorkspace(e.Source) {
			keep[e.Name] = true
		}
	}
	for _, st := range m.Statuses() {
		if fromWorkspace(st.Source) && !keep[st.Name] {
			_ = m.Remove(st.Name)
		}
	}
	h.mu.Lock()
	h.untrusted = src.Untrusted
	h.mu.Unlock()
	h.publish()
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
	if m := h.manager(); m != nil {
		for _, name := range added {
			if err := m.Put(Entry{Name: name, Source: h.userPath(), Config: next.Servers[name]}); err != nil {
				return added, err
			}
		}
	}
	return added, nil
}

// Close stops every server.
func (h *Host) Close() {
	h.mu.Lock()
	m := h.m
	h.m = nil
	h.mu.Unlock()
	if m != nil {
		m.Close()
	}
}
