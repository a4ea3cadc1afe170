package mcp

import (
	"errors"
	"slices"
	"strings"
	"sync"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// Servers per workspace. Every workspace open in the window (one a tab
// works in, or the one the panel shows) has a manager of its own: the
// user's servers with that workspace as their root, and the workspace's own
// list once the user trusted it. A session is attached to its workspace's
// manager only, so a workspace's servers, and with them their questions and
// pictures, reach only that workspace's tabs. The user's servers therefore
// run once per open workspace; a workspace's manager stops when no session
// of it is attached and the panel shows another.

// space is one open workspace's servers.
type space struct {
	dir       string
	m         *Manager
	untrusted *Untrusted
	problem   string
	// attached are the sessions of this workspace and the providers each
	// was given (guarded by Host.attachMu).
	attached map[Surface]map[string]tools.Provider
}

// spaces is the Host's set of open workspaces.
type spaces struct {
	mu      sync.Mutex
	shown   string // the workspace the panel shows
	byDir   map[string]*space
	started bool

	attachMu sync.Mutex
}

// load reads dir's server lists into a new space; its manager is not
// started. The error is the lists' (the space is usable, with what read).
func (h *Host) load(dir string) (*space, error) {
	sp := &space{dir: dir, attached: map[Surface]map[string]tools.Provider{}}
	src, err := LoadSources(h.opts.ConfigDir, dir, nil, h.trust)
	sp.m = NewManager(Options{Workspace: dir, EnvFunc: h.opts.EnvFunc, Version: h.opts.Version,
		OnChange: func() { h.changed(sp) }, Confine: h.opts.Confine, Ask: h.opts.Ask, Proxy: h.opts.Proxy}, src.Entries)
	if err != nil {
		sp.problem = err.Error() + " (fix the file; its servers do not run meanwhile)"
	}
	for _, r := range src.Refused {
		sp.problem = strings.TrimSpace(sp.problem + " " + r.Reason + ": its servers do not run.")
	}
	sp.untrusted = src.Untrusted
	return sp, err
}

// Open (re)loads the servers of workspace and makes it the one the panel
// shows. Sessions of it already attached move to the new servers; a
// workspace no session uses any more stops. Nothing starts before Start.
func (h *Host) Open(workspace string) error {
	sp, err := h.load(workspace)
	h.sp.attachMu.Lock()
	h.sp.mu.Lock()
	old := h.sp.byDir[workspace]
	if old != nil {
		sp.attached = old.attached
	}
	h.sp.byDir[workspace] = sp
	h.sp.shown = workspace
	idle := h.idleLocked()
	started := h.sp.started
	h.sp.mu.Unlock()
	h.sp.attachMu.Unlock()
	if old != nil {
		old.m.Close()
	}
	closeAll(idle)
	if started {
		sp.m.Start()
	}
	h.publish()
	return err
}

// Show makes workspace the one the panel shows (loading its servers when
// it is not open yet: a tab on another folder) and publishes its list.
func (h *Host) Show(workspace string) {
	h.spaceOf(workspace)
	h.sp.attachMu.Lock()
	h.sp.mu.Lock()
	h.sp.shown = workspace
	idle := h.idleLocked()
	h.sp.mu.Unlock()
	h.sp.attachMu.Unlock()
	closeAll(idle)
	h.publish()
}

// idleLocked takes out the spaces neither shown nor attached to any
// session and returns their managers. h.sp.mu and h.sp.attachMu are held.
func (h *Host) idleLocked() []*Manager {
	var out []*Manager
	for dir, sp := range h.sp.byDir {
		if dir != h.sp.shown && len(sp.attached) == 0 {
			delete(h.sp.byDir, dir)
			out = append(out, sp.m)
		}
	}
	return out
}

func closeAll(ms []*Manager) {
	var wg sync.WaitGroup
	for _, m := range ms {
		wg.Go(func() { m.Close() })
	}
	wg.Wait()
}

// Start starts the servers of every open workspace, and from now on those
// of a workspace as it opens.
func (h *Host) Start() {
	h.sp.mu.Lock()
	h.sp.started = true
	list := h.allLocked()
	h.sp.mu.Unlock()
	for _, sp := range list {
		sp.m.Start()
	}
}

func (h *Host) allLocked() []*space {
	out := make([]*space, 0, len(h.sp.byDir))
	for _, dir := range slices.Sorted(func(yield func(string) bool) {
		for d := range h.sp.byDir {
			if !yield(d) {
				return
			}
		}
	}) {
		out = append(out, h.sp.byDir[dir])
	}
	return out
}

// all is every open workspace's space, by folder.
func (h *Host) all() []*space {
	h.sp.mu.Lock()
	defer h.sp.mu.Unlock()
	return h.allLocked()
}

// shown is the space the panel shows (nil before a workspace opened).
func (h *Host) shown() *space {
	h.sp.mu.Lock()
	defer h.sp.mu.Unlock()
	return h.sp.byDir[h.sp.shown]
}

// spaceOf is dir's space, loaded (and started, once Start was called) when
// it is not open yet: a tab opened on another folder.
func (h *Host) spaceOf(dir string) *space {
	h.sp.mu.Lock()
	sp := h.sp.byDir[dir]
	h.sp.mu.Unlock()
	if sp != nil {
		return sp
	}
	sp, _ = h.load(dir) // a broken list: the space says so in its problem
	h.sp.mu.Lock()
	if had := h.sp.byDir[dir]; had != nil {
		h.sp.mu.Unlock()
		sp.m.Close() // never started
		return had
	}
	h.sp.byDir[dir] = sp
	started := h.sp.started
	h.sp.mu.Unlock()
	if started {
		sp.m.Start()
	}
	return sp
}

func (h *Host) manager() *Manager {
	if sp := h.shown(); sp != nil {
		return sp.m
	}
	return nil
}

func (h *Host) mgr() (*Manager, error) {
	if m := h.manager(); m != nil {
		return m, nil
	}
	return nil, errors.New("choose a workspace folder first")
}

// Providers are the shown workspace's servers as tool providers.
func (h *Host) Providers() []tools.Provider {
	if m := h.manager(); m != nil {
		return m.Providers()
	}
	return nil
}

// Starting names the shown workspace's servers still starting: a turn that
// begins now runs without their tools.
func (h *Host) Starting() []string {
	var out []string
	for _, s := range h.List().Servers {
		if s.State == StateStarting {
			out = append(out, s.Name)
		}
	}
	return out
}

// List is the panel's list: the shown workspace's servers.
func (h *Host) List() protocol.McpUpdatedPayload {
	p := protocol.McpUpdatedPayload{Servers: []protocol.McpServer{}, AllowList: h.opts.AllowList != nil && h.opts.AllowList()}
	sp := h.shown()
	if sp == nil {
		return p
	}
	p.Servers = append(p.Servers, sp.m.Statuses()...)
	h.sp.mu.Lock()
	u := sp.untrusted
	p.Problem = sp.problem
	h.sp.mu.Unlock()
	if u != nil {
		p.Untrusted = &protocol.McpUntrusted{File: WorkspaceConfig, Lines: u.Lines, Servers: u.Servers}
	}
	return p
}

// statuses are the servers of dir's workspace (none when it is not open).
func (h *Host) statuses(dir string) []protocol.McpServer {
	h.sp.mu.Lock()
	sp := h.sp.byDir[dir]
	h.sp.mu.Unlock()
	if sp == nil {
		return nil
	}
	return sp.m.Statuses()
}

// Attach gives session s the servers of its workspace dir: every one's
// provider now, and each server added or removed later; a server's tools
// are on it while the server is ready. detach (when s closes) takes s off;
// the last session of a workspace the panel does not show stops its
// servers.
func (h *Host) Attach(s Surface, dir string) (detach func(), err error) {
	sp := h.spaceOf(dir)
	h.sp.attachMu.Lock()
	sp.attached[s] = map[string]tools.Provider{}
	h.sp.attachMu.Unlock()
	return func() { h.detach(s, dir) }, h.sync(sp)
}

func (h *Host) detach(s Surface, dir string) {
	h.sp.attachMu.Lock()
	h.sp.mu.Lock()
	if sp := h.sp.byDir[dir]; sp != nil {
		delete(sp.attached, s)
	}
	idle := h.idleLocked()
	h.sp.mu.Unlock()
	h.sp.attachMu.Unlock()
	closeAll(idle)
}

// sync adds to each session of sp the providers of servers it lacks and
// removes those of servers gone.
func (h *Host) sync(sp *space) error {
	h.sp.attachMu.Lock()
	defer h.sp.attachMu.Unlock()
	now := map[string]tools.Provider{}
	for _, p := range sp.m.Providers() {
		now[p.Name()] = p
	}
	var errs []error
	for s, attached := range sp.attached {
		for name, p := range attached {
			if q, ok := now[name]; !ok || q != p {
				s.RemoveProvider(name)
				delete(attached, name)
			}
		}
		for name, p := range now {
			if _, ok := attached[name]; ok {
				continue
			}
			if err := s.AddProvider(p); err != nil {
				errs = append(errs, err)
				continue
			}
			attached[name] = p
		}
	}
	return errors.Join(errs...)
}

// changed runs when a server of sp changed: its sessions follow, and the
// panel hears when it shows sp.
func (h *Host) changed(sp *space) {
	_ = h.sync(sp)
	if h.shown() == sp && h.opts.OnUpdate != nil {
		h.opts.OnUpdate(h.List())
	}
}

// publish tells the panel the shown workspace's list.
func (h *Host) publish() {
	sp := h.shown()
	if sp != nil {
		_ = h.sync(sp)
	}
	if h.opts.OnUpdate != nil {
		h.opts.OnUpdate(h.List())
	}
}

// Close stops every workspace's servers.
func (h *Host) Close() {
	h.sp.mu.Lock()
	var ms []*Manager
	for dir, sp := range h.sp.byDir {
		ms = append(ms, sp.m)
		delete(h.sp.byDir, dir)
	}
	h.sp.mu.Unlock()
	closeAll(ms)
}
