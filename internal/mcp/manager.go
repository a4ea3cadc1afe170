package mcp

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"gatehouse/internal/tools"
	"gatehouse/internal/tools/steer"
)

// DefaultInitTimeout bounds a server's start: the process starting, the
// initialize handshake and the first tools/list.
const DefaultInitTimeout = 30 * time.Second

// Entry is one configured server and where its configuration came from
// (the user's config, a workspace's .gatehouse/mcp.json, --mcp-config).
type Entry struct {
	Name   string
	Source string
	Config ServerConfig
}

// Entries lists c's servers, sorted by name, as coming from source.
func (c Config) Entries(source string) []Entry {
	var out []Entry
	for _, name := range slices.Sorted(maps.Keys(c.Servers)) {
		out = append(out, Entry{Name: name, Source: source, Config: c.Servers[name]})
	}
	return out
}

// Merge joins lists of entries; a later entry with the same name replaces
// an earlier one (it keeps its own Source, so the UI can say which file won).
func Merge(lists ...[]Entry) []Entry {
	byName := map[string]Entry{}
	for _, l := range lists {
		for _, e := range l {
			byName[e.Name] = e
		}
	}
	var out []Entry
	for _, name := range slices.Sorted(maps.Keys(byName)) {
		out = append(out, byName[name])
	}
	return out
}

// Options configure a Manager.
type Options struct {
	// Workspace is the servers' working folder and the client's root.
	Workspace string
	// Env is the environment servers start from (nil: EnvFunc's, else this
	// process's); OPENAI_API_KEY and GATEHOUSE_* are always removed.
	Env []string
	// EnvFunc, when Env is nil, is asked for it as each server starts (the
	// login shell's environment, read off the first frame's path).
	EnvFunc func() []string
	// InitTimeout bounds each server's start (0: DefaultInitTimeout).
	InitTimeout time.Duration
	// OnChange (may be nil) hears that a server's state or tools changed.
	// It must not block.
	OnChange func()
	// Version is the client version sent to servers.
	Version string
	// Confine says how a server of the workspace's own list, started now
	// in the workspace, is confined (the supervisor helper and the
	// commands' sandbox policy); nil, or a Confinement without a helper or
	// policy: those servers do not start. See launch.go.
	Confine func(workspace string) Confinement
	// Ask puts a server's question to the user when the app cannot tell
	// which session's call caused it (the window, naming the server only);
	// nil: such questions are declined. See elicit.go.
	Ask steer.FormAsker
	// Proxy gives the URL of the app's filtering proxy for a browser
	// server set to start with it (browser.go); nil: none is run.
	Proxy func() (string, error)
}

// Manager runs the configured servers. Each server is a tools.Provider of
// its own; its tools are on the surface only while it is ready.
type Manager struct {
	opts   Options
	launch launcher

	mu      sync.Mutex
	servers []*server // sorted by name
	slugs   map[string]string
	closed  bool
	started bool

	watchers map[*func()]struct{} // Watch's

	questions atomic.Uint64 // ids of servers' questions
	tokens    atomic.Uint64 // calls' progress tokens
}

// NewManager returns a manager of entries; nothing starts before Start.
func NewManager(opts Options, entries []Entry) *Manager {
	if opts.Version == "" {
		opts.Version = "dev"
	}
	m := &Manager{opts: opts, slugs: map[string]string{}}
	m.add(entries)
	return m
}

func (m *Manager) initTimeout() time.Duration {
	if m.opts.InitTimeout > 0 {
		return m.opts.InitTimeout
	}
	return DefaultInitTimeout
}

func (m *Manager) env() []string {
	if m.opts.Env == nil && m.opts.EnvFunc != nil {
		return m.opts.EnvFunc()
	}
	return m.opts.Env
}

func (m *Manager) changed() {
	if m.opts.OnChange != nil {
		m.opts.OnChange()
	}
	m.mu.Lock()
	var fns []func()
	for fn := range m.watchers {
		fns = append(fns, *fn)
	}
	m.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}

// Watch makes fn hear, beside Options.OnChange, that a server's state,
// tools, resources or prompts changed; the returned func stops it. fn must
// not block.
func (m *Manager) Watch(fn func()) (stop func()) {
	key := &fn
	m.mu.Lock()
	if m.watchers == nil {
		m.watchers = map[*func()]struct{}{}
	}
	m.watchers[key] = struct{}{}
	m.mu.Unlock()
	return func() {
		m.mu.Lock()
		delete(m.watchers, key)
		m.mu.Unlock()
	}
}

// add creates servers for entries with names not yet known; m.mu is held
// or m is not shared yet.
func (m *Manager) add(entries []Entry) []*server {
	used := map[string]bool{}
	for _, s := range m.slugs {
		used[s] = true
	}
	var added []*server
	for _, e := range entries {
		if _, ok := m.slugs[e.Name]; ok {
			continue
		}
		slug := slugs([]string{e.Name})[e.Name]
		base := slug
		for i := 2; used[slug]; i++ {
			slug = fit(fmt.Sprintf("%s-%d", base, i), maxSlugLen)
		}
		used[slug] = true
		m.slugs[e.Name] = slug
		s := newServer(m, e, slug)
		m.servers = append(m.servers, s)
		added = append(added, s)
	}
	slices.SortFunc(m.servers, func(a, b *server) int {
		if a.name < b.name {
			return -1
		}
		if a.name > b.name {
			return 1
		}
		return 0
	})
	return added
}

// Start starts every enabled server in the background; it does not wait.
// Only the first call starts anything (Restart starts a server again).
func (m *Manager) Start() {
	m.mu.Lock()
	first := !m.started
	m.started = true
	m.mu.Unlock()
	if !first {
		return
	}
	for _, s := range m.list() {
		s.start()
	}
}

// Wait returns once no server is starting any more, or when ctx ends.
func (m *Manager) Wait(ctx context.Context) error {
	for _, s := range m.list() {
		if err := s.settle(ctx); err != nil {
			return err
		}
	}
	return nil
}

func (m *Manager) list() []*server {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.servers)
}

func (m *Manager) find(name string) (*server, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, s := range m.servers {
		if s.name == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("no MCP server %q", name)
}

// Statuses lists every server, sorted by name.
func (m *Manager) Statuses() []Status {
	var out []Status
	for _, s := range m.list() {
		out = append(out, s.status())
	}
	return out
}

// Status returns one server's status.
func (m *Manager) Status(name string) (Status, error) {
	s, err := m.find(name)
	if err != nil {
		return Status{}, err
	}
	return s.status(), nil
}

// Providers returns one provider per configured server, sorted by name.
func (m *Manager) Providers() []tools.Provider {
	var out []tools.Provider
	for _, s := range m.list() {
		out = append(out, provider{s})
	}
	return out
}

// Restart stops the server (killing its process group) and starts it again.
func (m *Manager) Restart(name string) error {
	s, err := m.find(name)
	if err != nil {
		return err
	}
	s.stop(StateStopped)
	s.start()
	return nil
}

// SetDisabled stops a server and marks it disabled, or enables and starts
// it. The caller saves the configuration.
func (m *Manager) SetDisabled(name string, disabled bool) error {
	s, err := m.find(name)
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.cfg.Disabled = disabled
	s.mu.Unlock()
	if disabled {
		s.stop(StateDisabled)
		m.changed()
		return nil
	}
	s.stop(StateStopped) // a running server is not started twice
	s.start()
	return nil
}

// SetToolEnabled switches one of a server's tools (by its name on the
// server) on or off for the model.
func (m *Manager) SetToolEnabled(name, tool string, on bool) error {
	s, err := m.find(name)
	if err != nil {
		return err
	}
	s.mu.Lock()
	d := slices.DeleteFunc(slices.Clone(s.cfg.DisabledTools), func(t string) bool { return t == tool })
	if !on {
		d = append(d, tool)
	}
	s.cfg.DisabledTools = d
	s.filter()
	s.mu.Unlock()
	m.changed()
	return nil
}

// Config returns a server's current configuration.
func (m *Manager) Config(name string) (ServerConfig, error) {
	s, err := m.find(name)
	if err != nil {
		return ServerConfig{}, err
	}
	return s.config(), nil
}

// Put adds a server or replaces one's configuration, restarting it.
func (m *Manager) Put(e Entry) error {
	if err := e.Config.Validate(); err != nil {
		return fmt.Errorf("server %q %w", e.Name, err)
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return fmt.Errorf("the MCP servers are closed")
	}
	added := m.add([]Entry{e})
	m.mu.Unlock()
	if len(added) == 1 {
		added[0].start()
		return nil
	}
	s, err := m.find(e.Name)
	if err != nil {
		return err
	}
	s.stop(StateStopped)
	s.mu.Lock()
	s.cfg, s.source = e.Config, e.Source
	s.mu.Unlock()
	s.start()
	return nil
}

// Remove stops a server and forgets it.
func (m *Manager) Remove(name string) error {
	s, err := m.find(name)
	if err != nil {
		return err
	}
	s.stop(StateStopped)
	m.mu.Lock()
	m.servers = slices.DeleteFunc(m.servers, func(x *server) bool { return x == s })
	delete(m.slugs, name)
	m.mu.Unlock()
	m.changed()
	return nil
}

// Close stops every server in parallel; no server process is left when it
// returns.
func (m *Manager) Close() error {
	m.mu.Lock()
	m.closed = true
	list := slices.Clone(m.servers)
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range list {
		wg.Go(func() {
			s.stop(StateStopped)
			s.mu.Lock()
			s.closed = true
			s.mu.Unlock()
		})
	}
	wg.Wait()
	m.launch.close()
	return nil
}

// provider is a server as a tools.Provider.
type provider struct{ s *server }

func (p provider) Name() string { return "mcp server " + p.s.name }

// Tools returns the server's enabled tools while it is ready, else none.
func (p provider) Tools() []tools.Tool {
	p.s.mu.Lock()
	defer p.s.mu.Unlock()
	if p.s.state != StateReady {
		return nil
	}
	return slices.Clone(p.s.visible)
}
