// Package host is the app's side of running commands under the supervisor
// helper: where the helper is, this run's ledger of process groups (and
// what a crashed run left), the sandbox policy each command gets, and what
// the UI says about confinement. It never links Landlock itself: the helper
// applies the policy.
package host

import (
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"gatehouse/internal/netproxy"
	"gatehouse/internal/proc"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/settings"
)

// HelperName is the helper's file name, beside the app's executable.
const HelperName = "gatehouse-supervisor"

// Config is the sandbox part of the settings.
type Config struct {
	Mode    string // sandbox.ModeWorkspaceWrite ("" too) or sandbox.ModeOff
	DenyTCP bool   // network off: TCP, MPTCP, UDP
	// Network is the network mode (netproxy.Mode*, "" on); Allow the
	// allow-list mode's domains.
	Network string
	Allow   []string
	// DenyRead is the deny-read list (nil: sandbox.DefaultDenyRead).
	DenyRead []string
	// Sockets are the Unix sockets commands may reach.
	Sockets []string
	// DenyGlobs are the workspace-relative paths the standing policy in
	// effect denies reading (policy.ReadDenyGlobs): hidden from commands
	// too (sandbox.Spec.DenyGlobs).
	DenyGlobs []string
}

// ConfigOf is the sandbox part of s.
func ConfigOf(s settings.Settings) Config {
	mode := s.NetworkMode()
	return Config{Mode: s.Sandbox, DenyTCP: mode == netproxy.ModeOff, Network: mode, Allow: s.NetworkAllow,
		DenyRead: s.SandboxDenyRead, Sockets: s.SandboxSockets}
}

// Host is shared by the sessions of one run of the app.
type Host struct {
	// Helper is the helper's path, "" when it is missing.
	Helper string
	// ABI is the kernel's Landlock ABI, 0 without Landlock.
	ABI int
	// ConfigDir is Gatehouse's settings folder, never readable by
	// commands (default settings.DefaultDir).
	ConfigDir string
	dataDir   string
	ledgerDir string
	ledger    *proc.Ledger

	layersOnce sync.Once
	layers     sandbox.Layers

	mu       sync.Mutex
	proxy    *netproxy.Proxy // started on first use in allow-list mode
	proxyErr error
	nets     map[string]*netproxy.Session // by session id
	// ProxyOptions are the proxy's (tests: a resolution of their own);
	// set before the first command.
	ProxyOptions netproxy.Options
}

// New finds the helper ($GATEHOUSE_SUPERVISOR, else beside the executable)
// and starts this run's ledger in dataDir/running ("" dataDir: no ledger,
// no crash recovery).
func New(dataDir string, log *slog.Logger) *Host {
	h := &Host{ABI: sandbox.ABI()}
	h.ConfigDir, _ = settings.DefaultDir()
	h.Helper = os.Getenv("GATEHOUSE_SUPERVISOR")
	if h.Helper == "" {
		if exe, err := os.Executable(); err == nil {
			h.Helper = filepath.Join(filepath.Dir(exe), HelperName)
		}
	}
	if fi, err := os.Stat(h.Helper); err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
		log.Warn("the supervisor helper is missing: commands run unconfined and unsupervised", "path", h.Helper)
		h.Helper = ""
	}
	if dataDir != "" {
		h.dataDir = dataDir
		h.ledgerDir = filepath.Join(dataDir, "running")
		l, err := proc.OpenLedger(h.ledgerDir)
		if err != nil {
			log.Warn("no ledger of running processes: a crash could leave them running unnoticed", "err", err)
		}
		h.ledger = l
		if err := sandbox.MakeCaches(dataDir); err != nil {
			log.Warn("no tool caches of Gatehouse's own: confined builds will download again", "err", err)
		}
	}
	return h
}

// Layers are the confinement layers of this system, found on first use
// (bubblewrap runs once, ≈ 3 ms), not at start.
func (h *Host) Layers() sandbox.Layers {
	h.layersOnce.Do(func() {
		h.layers = sandbox.Detect()
		h.layers.ABI = h.ABI
	})
	return h.layers
}

// Status says whether commands started now run confined, and if not, why.
func (h *Host) Status(c Config) sandbox.Status {
	st := sandbox.Status{Mode: c.Mode, ABI: h.ABI, Available: h.Helper != "" && h.ABI > 0}
	if st.Mode == "" {
		st.Mode = sandbox.ModeWorkspaceWrite
	}
	switch {
	case h.Helper == "":
		st.Reason = "The supervisor helper (" + HelperName + ") is missing beside the app: commands run unconfined, and a crash of the app may leave them running."
	case h.ABI < 1:
		st.Reason = "This system has no Landlock (Linux 5.13 or later with Landlock enabled): commands run unconfined."
	case st.Mode == sandbox.ModeOff:
		st.Reason = "The sandbox is off (Settings): commands can write anywhere you can."
	default:
		st.Confined = true
	}
	return st
}

// Describe is Status with what a confined command of workspace reaches.
func (h *Host) Describe(c Config, workspace, scratch string, env []string) sandbox.Status {
	st := h.Status(c)
	if st.Confined && workspace != "" {
		st.Describe(h.Policy(workspace, scratch, env, c), h.Layers(), sandbox.HomeDir(env))
	}
	return st
}

// Network is the network policy of a session (its commands' and
// web_fetch's), made on first use; cfg is the setting in effect.
func (h *Host) Network(session string, cfg func() Config) *netproxy.Session {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.nets == nil {
		h.nets = map[string]*netproxy.Session{}
	}
	n := h.nets[session]
	if n == nil {
		n = netproxy.NewSession(func() (string, []string) { c := cfg(); return c.Network, c.Allow })
		h.nets[session] = n
	}
	return n
}

// Proxy is the filtering proxy of this run, started on first use.
func (h *Host) Proxy() (*netproxy.Proxy, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.proxy == nil && h.proxyErr == nil {
		h.proxy, h.proxyErr = netproxy.Start(h.ProxyOptions)
	}
	return h.proxy, h.proxyErr
}

// netSpec fills the allow-list mode's part of s: the proxy, and an
// identity per command checked against net. Without the proxy the
// network is off.
func (h *Host) netSpec(s *sandbox.Spec, c Config, net *netproxy.Session) {
	if c.Network != netproxy.ModeAllowList {
		return
	}
	p, err := h.Proxy()
	if err != nil {
		s.NoNetwork = true
		return
	}
	if net == nil { // no session: the setting alone
		net = netproxy.NewSession(func() (string, []string) { return c.Network, c.Allow })
	}
	s.ProxyPort = p.Port()
	s.OpenNet = func() sandbox.NetCall { return p.Open(net.Allowed) }
	s.ServeProxy = p.Serve
}

// Options completes o for a session: every command runs under the helper,
// confined as cfg says at the time it starts, to the workspace, temp, the
// session's scratch folder and the tool caches; in allow-list mode its
// web traffic goes through the proxy, checked against net.
func (h *Host) Options(o proc.Options, workspace, scratch string, cfg func() Config, net *netproxy.Session) proc.Options {
	o.Supervisor, o.Ledger = h.Helper, h.ledger
	env := o.Env
	if env == nil {
		env = os.Environ
	}
	o.SandboxFor = func(workspace string) func(string) *sandbox.Policy {
		return func(string) *sandbox.Policy {
			c := cfg()
			if !h.Status(c).Confined {
				return nil
			}
			p := h.policy(workspace, scratch, env(), c, net)
			return &p
		}
	}
	o.Sandbox = o.SandboxFor(workspace)
	return o
}

// Policy is the confinement of a command of workspace.
func (h *Host) Policy(workspace, scratch string, env []string, c Config) sandbox.Policy {
	return h.policy(workspace, scratch, env, c, nil)
}

func (h *Host) policy(workspace, scratch string, env []string, c Config, net *netproxy.Session) sandbox.Policy {
	s := sandbox.Spec{Workspace: workspace, Scratch: scratch, Home: sandbox.HomeDir(env), Env: env,
		NoNetwork: c.DenyTCP, DataDir: h.dataDir, ConfigDir: h.ConfigDir, DenyRead: c.DenyRead, AllowSockets: c.Sockets,
		DenyGlobs: c.DenyGlobs, Layers: h.Layers()}
	h.netSpec(&s, c, net)
	return sandbox.Build(s)
}

// Hides says whether a command of workspace started now, under this
// system's layers and the settings c (c.DenyGlobs: the policy's read
// denies), cannot read path; when it can, why not in plain words (the
// sandbox is off, Landlock alone cannot hide it, no deny names it). For
// `gatehouse policy check` and the Policy page's "test a path".
func (h *Host) Hides(workspace string, env []string, c Config, path string) (bool, string) {
	if st := h.Status(c); !st.Confined {
		return false, st.Reason
	}
	return h.Policy(workspace, "", env, c).Hides(path)
}

// Confinement is how a program the workspace supplies (a server of its
// .gatehouse/mcp.json) runs: always confined, as commands are with the
// sandbox on (the setting's mode does not turn it off; its TCP choice
// holds), or not at all: the helper, the policy, or why there is none.
func (h *Host) Confinement(workspace string, env []string, c Config) (string, *sandbox.Policy, string) {
	c.Mode = sandbox.ModeWorkspaceWrite
	if st := h.Status(c); !st.Confined {
		return "", nil, st.Reason
	}
	p := h.Policy(workspace, h.Scratch("mcp"), env, c)
	if p.ProxyPort != 0 && h.Layers().ABI < sandbox.NetABI {
		// A server is no session's command: no session's network holds
		// the list for it, and Landlock has no TCP rule.
		p.NoNetwork, p.NoNetworkWhy = true, sandbox.NoTCPRule(h.Layers().ABI)
		p.ProxyPort, p.OpenNet, p.ServeProxy = 0, nil, nil
	}
	if p.OpenNet != nil {
		// A long-lived server: one identity, in its flags.
		p.SetEnv = append(p.SetEnv, p.OpenNet().Env()...)
		p.OpenNet = nil
	}
	return h.Helper, &p, ""
}

// Scratch makes and returns the scratch folder of a session, below the
// data folder ("" when there is none).
func (h *Host) Scratch(session string) string {
	if h.dataDir == "" || session == "" {
		return ""
	}
	dir := filepath.Join(h.dataDir, "scratch", session)
	if os.MkdirAll(filepath.Join(dir, "tmp"), 0o700) != nil {
		return ""
	}
	return dir
}

// Leftovers lists the process groups runs that crashed left running.
func (h *Host) Leftovers() []proc.Leftover {
	if h.ledgerDir == "" {
		return nil
	}
	left, _ := proc.FindLeftovers(h.ledgerDir)
	return left
}

// StopLeftover stops one of Leftovers (SIGTERM, 2 s, SIGKILL).
func (h *Host) StopLeftover(id string) error {
	return proc.StopLeftover(h.ledgerDir, id, 2*time.Second)
}

// Close ends the ledger (the run exits cleanly, its processes were
// closed) and the proxy.
func (h *Host) Close() error {
	h.mu.Lock()
	if h.proxy != nil {
		h.proxy.Close()
	}
	h.mu.Unlock()
	return h.ledger.Close()
}
