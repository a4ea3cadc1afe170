package lsp

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"gatehouse/internal/proc"
)

// Launched is a server's process, ready to start, and how to end it.
type Launched struct {
	Cmd *exec.Cmd
	// Stop ends the process's whole tree (it may wait for it).
	Stop func()
	// Confined: it runs under the sandbox.
	Confined bool
	// Walls names the confinement it runs under (Options.Walls).
	Walls string
}

// Launcher builds the command of a server: argv[0] is a path; env is the
// server's whole environment; dir is the workspace.
type Launcher func(argv, env []string, dir string) (Launched, error)

// Options configure a Manager.
type Options struct {
	// Root is the workspace: every server's root, and the folder
	// diagnostics' paths are relative to.
	Root string
	// Servers are the configured servers (nil: Defaults()).
	Servers []ServerConfig
	// Env is the servers' environment before Gatehouse's edits (nil: this
	// process's). API keys and Gatehouse's variables never reach them.
	Env func() []string
	// Launch builds a server's command (nil: a plain child in its own
	// process group, killed when this process dies on Linux).
	Launch Launcher
	// Walls names the confinement a server would start under now (the
	// read denies of the user's policy and the paths they match); a running
	// server whose Launched.Walls differs is restarted before its next use,
	// so a deny added while it runs holds for it too (nil: never).
	Walls func() string
	// Timeout bounds one check (default 20 s); StartTimeout a server's
	// initialize (default 30 s).
	Timeout, StartTimeout time.Duration
	// Quiet is how long diagnostics must stay unchanged to count as
	// settled (default 200 ms); Unchanged how long a server that publishes
	// only changes (gopls) may stay silent after a change (default 1.5 s).
	Quiet, Unchanged time.Duration
}

// Manager runs a session's language servers: each starts on the first need
// for a file it checks, one per language, and stops with Close (when the
// session closes). It is safe for concurrent use.
type Manager struct {
	opts    Options
	root    string
	servers []*server

	mu     sync.Mutex
	closed bool
	listen func()
}

// Listen sets f to hear each change of the servers' diagnostics or states
// (the Problems panel); it must return quickly.
func (m *Manager) Listen(f func()) {
	m.mu.Lock()
	m.listen = f
	m.mu.Unlock()
}

func (m *Manager) tell() {
	m.mu.Lock()
	f := m.listen
	m.mu.Unlock()
	if f != nil {
		f()
	}
}

// New returns a manager of the configured servers that are installed
// (found on the PATH of Env); nothing starts until a file needs one.
func New(o Options) *Manager {
	if o.Servers == nil {
		o.Servers = Defaults()
	}
	if o.Env == nil {
		o.Env = os.Environ
	}
	if o.Timeout <= 0 {
		o.Timeout = 20 * time.Second
	}
	if o.StartTimeout <= 0 {
		o.StartTimeout = 30 * time.Second
	}
	if o.Quiet <= 0 {
		o.Quiet = 200 * time.Millisecond
	}
	if o.Unchanged <= 0 {
		o.Unchanged = 1500 * time.Millisecond
	}
	root := o.Root
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	m := &Manager{opts: o, root: root}
	env := serverEnv(o.Env(), nil)
	for _, c := range o.Servers {
		if c.Disabled || c.Command == "" || len(c.Patterns) == 0 {
			continue
		}
		// A server that is not installed checks nothing: edits of its
		// files say nothing of it.
		if _, err := LookPath(c.Command, serverEnv(env, c.Env)); err != nil {
			continue
		}
		m.servers = append(m.servers, newServer(m, c))
	}
	return m
}

// Root is the workspace the servers work in.
func (m *Manager) Root() string { return m.root }

// serverFor is the server that checks the file at abs (nil: none).
func (m *Manager) serverFor(abs string) *server {
	rel := m.rel(abs)
	for _, s := range m.servers {
		if s.cfg.Matches(rel) {
			return s
		}
	}
	return nil
}

// Handles reports whether a configured server checks the file at abs.
func (m *Manager) Handles(abs string) bool { return m.serverFor(abs) != nil }

// rel is abs relative to the root, slash-separated.
func (m *Manager) rel(abs string) string {
	r, err := filepath.Rel(m.root, abs)
	if err != nil || strings.HasPrefix(r, "..") {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(r)
}

// Statuses are the servers that started at least once, or failed to.
func (m *Manager) Statuses() []Status {
	var out []Status
	for _, s := range m.servers {
		if st := s.status(); st.State != StateStopped || st.Restarts > 0 {
			out = append(out, st)
		}
	}
	return out
}

func (m *Manager) changed() { m.tell() }

func (m *Manager) published() { m.tell() }

// Close stops every server and waits until none is left.
func (m *Manager) Close() {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range m.servers {
		wg.Add(1)
		go func() { defer wg.Done(); s.close() }()
	}
	wg.Wait()
}

// launch builds the command of the server of c.
func (m *Manager) launch(c ServerConfig) (Launched, error) {
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		return Launched{}, errors.New("the session's language servers are stopped")
	}
	env := serverEnv(m.opts.Env(), c.Env)
	prog, err := LookPath(c.Command, env)
	if err != nil {
		return Launched{}, err
	}
	argv := append([]string{prog}, c.Args...)
	if m.opts.Launch != nil {
		return m.opts.Launch(argv, env, m.root)
	}
	return plainLaunch(argv, env, m.root)
}

// serverEnv is a server's environment: base without secrets, with the go
// command on PATH (withGo), the Go toolchain kept local (a go.mod's
// toolchain line does not download one) and the module cache read as it
// is (no download into it), then extra.
func serverEnv(base []string, extra map[string]string) []string {
	env := withGo(proc.SanitizeEnv(base))
	env = append(env, "GOTOOLCHAIN=local", "GOPROXY=off")
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		env = append(env, k+"="+extra[k])
	}
	return env
}
