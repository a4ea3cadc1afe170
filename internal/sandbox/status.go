package sandbox

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Status says whether commands run confined and what a confined command
// can reach, for Settings, the header and the approval dialog.
type Status struct {
	Mode string `json:"mode"` // the setting: workspace-write or off
	// Available: the kernel has Landlock (ABI > 0) and the helper exists.
	Available bool `json:"available"`
	ABI       int  `json:"abi,omitempty"`
	// Confined: commands started now run confined.
	Confined bool `json:"confined"`
	// Reason says why commands are not confined, in plain words.
	Reason string `json:"reason,omitempty"`
	// Layers names the active layers, in plain words.
	Layers []string `json:"layers"`
	// LandlockOnly: no namespaces here; Missing says what that costs.
	LandlockOnly bool   `json:"landlockOnly,omitempty"`
	Missing      string `json:"missing,omitempty"`
	// What a confined command can reach.
	Writable []string `json:"writable"`
	DenyRead []string `json:"denyRead"`
	// PolicyReads says what becomes of the standing policy's read denies
	// for commands: hidden, or why not ("" without any).
	PolicyReads string   `json:"policyReads,omitempty"`
	ReadOnly    []string `json:"readOnly"`
	Sockets     string   `json:"sockets"`
	Network     string   `json:"network"`
	Signals     string   `json:"signals"`
	// Line is all of it in one line: the dialog's Sandbox line.
	Line string `json:"line"`
}

// LineOf is the dialog's Sandbox line for a command confined by p.
func LineOf(p Policy) string {
	var st Status
	st.Describe(p, Layers{ABI: ABI(), Bwrap: p.Bwrap, Seccomp: true}, p.Home)
	return st.Line
}

// landlockOnlyMisses is what Landlock alone does not hold, said in the UI.
const landlockOnlyMisses = "No namespaces here: Landlock and seccomp alone. Changes to .git/hooks, .git/config, .git/modules' hooks and config, .gatehouse/, .envrc, .vscode/ and .idea/ " +
	"are detected after each command, not prevented; reads are granted per entry, so the folders on the way to a denied path (your home folder, ~/.config) cannot be " +
	"listed and what is created in them after a command starts is hidden from it; Unix sockets are refused whole, and /tmp, /dev/shm and /dev/pts are shared with your other programs (a command can write to your other terminals)."

// NetByPort is what the allow-list misses without the session's network
// namespace (Landlock alone, or no nsenter), said in the Sandbox line.
const NetByPort = "Enforced by port, not address: other hosts on the proxy's port or on a port the session's servers listen on are reachable"

// Describe fills st's description of what a command confined by p
// reaches; home shortens paths to ~.
func (st *Status) Describe(p Policy, l Layers, home string) {
	st.Layers = nil
	if p.Namespaces() {
		ns := "namespaces (bubblewrap: user, mount, PID, IPC"
		if p.Nsenter != "" {
			// Commands join a holder's namespaces and stay in the app's
			// PID namespace: Landlock's scope keeps their signals in.
			ns = "namespaces (bubblewrap: user, mount, IPC"
		}
		if p.NoNetwork || p.ProxyPort != 0 && p.Nsenter != "" {
			ns += ", network"
		}
		st.Layers = append(st.Layers, ns+")")
	} else {
		st.LandlockOnly, st.Missing = true, landlockOnlyMisses
		if l.NoNamespaces != "" {
			st.Missing += " (" + l.NoNamespaces + ")"
		}
	}
	st.Layers = append(st.Layers, "Landlock ABI "+strconv.Itoa(l.ABI))
	if l.Seccomp {
		st.Layers = append(st.Layers, "seccomp")
	}
	short := func(ps []string) []string {
		out := make([]string, 0, len(ps))
		for _, x := range ps {
			if home != "" && Within(x, home) {
				rel, _ := filepath.Rel(home, x)
				x = "~/" + rel
			}
			out = append(out, x)
		}
		return out
	}
	st.Writable = short(p.Writable)
	st.DenyRead = append(slices.Clone(p.DenyList), "Gatehouse's settings and other sessions")
	st.PolicyReads = policyReads(p)
	if len(p.DenyGlobs) > 0 {
		st.DenyRead = append([]string{"your policy's " + strings.Join(p.DenyGlobs, ", ")}, st.DenyRead...)
	}
	st.ReadOnly = GuardedNames
	switch {
	case !p.AllowUnix:
		st.Sockets = "no Unix sockets (D-Bus, ssh-agent, docker, X11 refused)"
	case p.Namespaces():
		st.Sockets = "Unix sockets you allowed only; the session's others are hidden"
	default:
		st.Sockets = "Unix sockets allowed (you allowed one; without namespaces none is hidden)"
	}
	st.Network = "on"
	switch {
	case p.NoNetwork && p.NoNetworkWhy != "":
		st.Network = "off (TCP, MPTCP, UDP): " + p.NoNetworkWhy
	case p.NoNetwork:
		st.Network = "off (TCP, MPTCP, UDP)"
	case p.ProxyPort != 0 && p.Namespaces() && p.Nsenter != "":
		st.Network = "allow-list: the web only through Gatehouse's proxy to the listed domains, in the session's own network (loopback only: " +
			"no other address is reachable; the session's servers reach each other on localhost and are forwarded to this machine's)"
	case p.ProxyPort != 0:
		st.Network = "allow-list: the web only through Gatehouse's proxy to the listed domains (direct TCP, MPTCP, UDP refused; the session's own servers stay reachable). " +
			NetByPort
	}
	st.Signals = "its own processes only"
	layers := strings.Join(st.Layers, ", ")
	reads := st.DenyRead
	if len(reads) > 8 {
		reads = append(slices.Clone(reads[:7]), "… "+strconv.Itoa(len(reads)-7)+" more (Settings)")
	}
	st.Line = "confined by " + layers + ". Writes: workspace, temp, scratch, Gatehouse's tool caches (not " +
		strings.Join(GuardedNames, ", ") + "). Reads: all but " + strings.Join(reads, ", ") +
		". Sockets: " + st.Sockets + ". Network: " + st.Network + ". Signals: " + st.Signals + "."
	if st.PolicyReads != "" {
		st.Line += " " + st.PolicyReads
	}
}

// policyReads says what the sandbox does with p's policy read denies: the
// paths it hides, and plainly what it cannot.
func policyReads(p Policy) string {
	if len(p.DenyGlobs) == 0 {
		return ""
	}
	var s string
	switch {
	case len(p.Unhidden) > 0 || !p.Namespaces():
		s = "Your policy's read denies (" + strings.Join(p.DenyGlobs, ", ") + ") are NOT hidden from commands here: " + CannotHide
	default:
		s = "Your policy's read denies (" + strings.Join(p.DenyGlobs, ", ") + ") are hidden from commands (an empty mount over each file or folder that exists when a command starts; a folder's later files too)."
	}
	if len(p.GlobsPartial) > 0 {
		s += " The workspace is too large to search whole for " + strings.Join(p.GlobsPartial, ", ") + ": some matches may stay readable to commands."
	}
	return s
}
