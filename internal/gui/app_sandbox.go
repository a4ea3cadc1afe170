package gui

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"gatehouse/internal/netproxy"
	"gatehouse/internal/proc"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/sandbox/host"
	"gatehouse/internal/settings"
)

// SandboxView is the sandbox as the header and the settings show it: the
// active layers and what a confined command of the open workspace reaches
// (sandbox.Status), and the lists the user edits.
type SandboxView struct {
	sandbox.Status
	// DenyTCP: the network is off for confined commands (TCP, MPTCP, UDP).
	DenyTCP bool `json:"denyTCP"`
	// DenyList is the deny-read list as set ("~/" is the home folder);
	// Sockets the Unix sockets commands may reach.
	DenyList []string `json:"denyList"`
	Sockets  []string `json:"socketList"`
	// NetworkMode is the network setting (on, off or allow-list) and
	// NetworkAllow its allow-list, as saved.
	NetworkMode  string   `json:"networkMode"`
	NetworkAllow []string `json:"networkAllow"`
}

// cmdHost is the supervisor host of this run (the recipe's).
func (a *App) cmdHost() *host.Host { return a.kit.Commands() }

// Sandbox says whether commands run confined, with which layers, and what
// they reach.
func (a *App) Sandbox() SandboxView {
	a.mu.Lock()
	h, ws, id := a.cmdHost(), a.workspace, ""
	if a.sess != nil {
		id = a.sess.ID()
	}
	a.mu.Unlock()
	c := a.kit.SandboxFor(ws)()
	v := SandboxView{Status: h.Describe(c, ws, h.Scratch(id), a.loginEnv.Environ()), DenyTCP: c.DenyTCP,
		DenyList: c.DenyRead, Sockets: c.Sockets, NetworkMode: c.Network, NetworkAllow: c.Allow}
	if v.NetworkAllow == nil {
		v.NetworkAllow = []string{}
	}
	if v.DenyList == nil {
		v.DenyList = sandbox.DefaultDenyRead
	}
	if v.Sockets == nil {
		v.Sockets = []string{}
	}
	if v.Writable == nil {
		v.Writable = []string{}
	}
	return v
}

// SetSandbox saves the sandbox mode (workspace-write or off) and whether the
// network is off; the next command uses them. Only the user calls this: no
// tool can.
func (a *App) SetSandbox(mode string, denyTCP bool) (SandboxView, error) {
	if mode != sandbox.ModeWorkspaceWrite && mode != sandbox.ModeOff {
		return a.Sandbox(), fmt.Errorf("unknown sandbox mode %q: use workspace-write or off", mode)
	}
	a.saveSettings(func(s *settings.Settings) {
		s.Sandbox, s.SandboxDenyTCP = mode, denyTCP
		switch {
		case denyTCP:
			s.Network = netproxy.ModeOff
		case s.Network == netproxy.ModeOff:
			s.Network = netproxy.ModeOn
		}
	})
	return a.Sandbox(), nil
}

// SetNetwork saves the network of confined commands and web_fetch: on,
// off or allow-list, and the allow-list's domains (a name, or "*." and a
// name); the next command and fetch use them. Only the user calls this.
func (a *App) SetNetwork(mode string, allow []string) (SandboxView, error) {
	if mode != netproxy.ModeOn && mode != netproxy.ModeOff && mode != netproxy.ModeAllowList {
		return a.Sandbox(), fmt.Errorf("unknown network mode %q: use on, off or allow-list", mode)
	}
	list, err := netproxy.CleanList(allow)
	if err != nil {
		return a.Sandbox(), err
	}
	a.saveSettings(func(s *settings.Settings) {
		s.Network, s.SandboxDenyTCP, s.NetworkAllow = mode, mode == netproxy.ModeOff, list
	})
	return a.Sandbox(), nil
}

// AllowDomain lets the open session reach domain from now on, in the
// network's allow-list mode (its commands through the proxy, and
// web_fetch): the user's click on a refusal's card. Only the user calls
// this.
func (a *App) AllowDomain(domain string) error {
	d, err := cardDomain(domain)
	if err != nil {
		return err
	}
	a.mu.Lock()
	h, id := a.cmdHost(), ""
	if a.sess != nil {
		id = a.sess.ID()
	}
	a.mu.Unlock()
	if id == "" {
		return fmt.Errorf("no session is open")
	}
	h.Network(id, a.kit.Sandbox).Allow(d)
	return nil
}

// AllowDomainAlways adds domain to the network's allow-list (Settings →
// Network) for every session from now on: the user's click on a refusal's
// card, which showed what it adds. Only the user calls this.
func (a *App) AllowDomainAlways(domain string) (SandboxView, error) {
	d, err := cardDomain(domain)
	if err != nil {
		return a.Sandbox(), err
	}
	err = a.store.Update(func(s *settings.Settings) {
		if !slices.Contains(s.NetworkAllow, d) {
			s.NetworkAllow = append(slices.Clone(s.NetworkAllow), d)
		}
	})
	if err != nil {
		return a.Sandbox(), fmt.Errorf("the allow-list was not saved: %w", err)
	}
	return a.Sandbox(), nil
}

// cardDomain checks a domain a refusal's card names: one exact host, never
// a wildcard.
func cardDomain(domain string) (string, error) {
	d, err := netproxy.CleanEntry(domain)
	if err != nil || strings.HasPrefix(d, "*.") {
		return "", fmt.Errorf("%q is not a domain", domain)
	}
	return d, nil
}

// SetSandboxLists saves the deny-read list and the Unix sockets commands
// may reach; the next command uses them. Only the user calls this.
func (a *App) SetSandboxLists(denyRead, sockets []string) (SandboxView, error) {
	deny, err := sandbox.CleanList(denyRead, false)
	if err != nil {
		return a.Sandbox(), err
	}
	socks, err := sandbox.CleanList(sockets, true)
	if err != nil {
		return a.Sandbox(), err
	}
	a.saveSettings(func(s *settings.Settings) { s.SandboxDenyRead, s.SandboxSockets = deny, socks })
	return a.Sandbox(), nil
}

// Leftovers lists the process groups a crashed run of the app left running.
func (a *App) Leftovers() []proc.Leftover {
	a.mu.Lock()
	h := a.cmdHost()
	a.mu.Unlock()
	if left := h.Leftovers(); left != nil {
		return left
	}
	return []proc.Leftover{}
}

// StopLeftover stops one of Leftovers and returns those left.
func (a *App) StopLeftover(id string) ([]proc.Leftover, error) {
	a.mu.Lock()
	h := a.cmdHost()
	a.mu.Unlock()
	err := h.StopLeftover(id)
	return a.Leftovers(), err
}

// confirmWorkspace asks before opening the home or root folder as the
// workspace: commands could then write nearly anywhere.
func (a *App) confirmWorkspace(dir string) bool {
	home, _ := os.UserHomeDir()
	why := sandbox.RiskyWorkspace(dir, home)
	if why == "" {
		return true
	}
	return a.rt.Load().Confirm("Open "+dir+" as the workspace?",
		"This is "+why+". Choose a project folder instead unless you mean it.", "Open it anyway", "Cancel")
}
