package sandbox

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Modes of the sandbox setting.
const (
	// ModeWorkspaceWrite confines commands to writing in the workspace,
	// temp, scratch and Gatehouse's own tool caches. The default.
	ModeWorkspaceWrite = "workspace-write"
	// ModeOff runs commands unconfined.
	ModeOff = "off"
)

// ValidMode reports whether m is a mode ("" is the default).
func ValidMode(m string) bool { return m == "" || m == ModeWorkspaceWrite || m == ModeOff }

// Policy is the confinement of one command, as the helper applies it.
type Policy struct {
	// Writable folders: the command may create, change and remove files
	// below them, and move files between them. Missing ones are skipped.
	Writable []string
	// NoNetwork: no TCP, MPTCP or UDP connection anywhere (a network
	// namespace with loopback only; with Landlock alone, Landlock's TCP
	// rule and seccomp on the other socket kinds).
	NoNetwork bool
	// NoNetworkWhy says why the network is off when the user did not turn
	// it off: the allow-list mode on a kernel whose Landlock has no TCP
	// rule. Not a flag of the helper.
	NoNetworkWhy string
	// ProxyPort, in the network's allow-list mode, is the loopback port
	// of the app's filtering proxy (package netproxy): Landlock refuses
	// every TCP connect but to it and to ConnectPorts, and seccomp every
	// other inet socket kind (MPTCP, UDP, SCTP, raw), with or without
	// namespaces. 0: not in allow-list mode.
	ProxyPort int
	// ConnectPorts, with ProxyPort, are the ports the session's own
	// processes listened on when the command started (its dev servers).
	ConnectPorts []int
	// NetNS, with ProxyPort, Bwrap and Nsenter, is the pid of the keeper
	// of the session's network namespace (netns.go): the command runs
	// there, where only loopback exists, the proxy's port is bridged in
	// and the session's servers listen; no other address is reachable, so
	// Landlock's port rule is left out. 0: the port rule alone.
	NetNS int
	// OpenNet, with ProxyPort, gives the command its identity at the
	// proxy, called once per command started. Not a flag.
	OpenNet func() NetCall `json:"-"`
	// ServeProxy, with ProxyPort, serves the proxy on another listener:
	// its port in the session's network namespace (NetNS). nil: no such
	// namespace, the port rule alone. Not a flag.
	ServeProxy func(net.Listener) `json:"-"`
	// Bwrap is the path of bubblewrap: the command runs in its own user,
	// mount, PID and IPC namespaces (and network namespace with NoNetwork).
	// "": Landlock and seccomp only.
	Bwrap string
	// Nsenter is the path of nsenter: with Bwrap, the command joins the
	// namespaces a holder made ahead for the same policy (HoldArgs,
	// JoinArgs) instead of starting bubblewrap. "": bubblewrap each time.
	Nsenter string
	// DenyRead are the paths the command cannot read: hidden by empty
	// mounts in the mount namespace; with Landlock alone, left out of
	// ReadRoots.
	DenyRead []string
	// ReadBack are folders inside denied ones the command may read, never
	// write: the user's skills folder in Gatehouse's config folder
	// (read-only mounts over the empty ones; with Landlock alone, read
	// grants beside ReadRoots).
	ReadBack []string
	// HideSockets are socket files and folders of sockets (the session
	// bus, an ssh agent, X11, docker) hidden in the mount namespace.
	HideSockets []string
	// ReadOnly are paths inside writable folders that stay read-only
	// (.git/hooks, .git/config, .git/modules, .gatehouse, .envrc, .vscode, .idea): read-only mounts.
	ReadOnly []string
	// Pinned are folders bound onto themselves, so that they cannot be
	// renamed away (a mount point cannot be moved): .git.
	Pinned []string
	// HolderRoot, for a command that joins a holder's namespaces, is
	// where the holder's file system is seen from the helper that confines
	// the command (/proc/<holder>/root): its own /dev/shm, a mount Landlock
	// rules made on the app's paths do not reach. Set by the helper; not a
	// flag.
	HolderRoot string
	// PrivateTmp, when set, is mounted on /tmp (the command then shares no
	// /tmp with the user's other programs).
	PrivateTmp string
	// ReadRoots, with Landlock alone, are the files and folders the
	// command may read (everything but DenyRead, see ReadGrants); empty:
	// everything.
	ReadRoots []string
	// AllowUnix lets the command create Unix sockets (the user allowed
	// some socket): seccomp refuses socket(AF_UNIX) otherwise.
	AllowUnix bool
	// Guarded, with Landlock alone, are the paths ReadOnly would hold:
	// the app restores them after the command (Guard). Not a flag: the
	// helper does not see it.
	Guarded []string `json:"-"`
	// Home shortens paths to ~ in what the UI says, and DenyList is the
	// deny-read list as the user wrote it. Not flags.
	Home     string   `json:"-"`
	DenyList []string `json:"-"`
	// DenyGlobs are the read denies of the user's standing policy
	// (Spec.DenyGlobs), as written; PolicyDenied the paths they matched
	// that DenyRead hides, Unhidden those the layers cannot hide (with
	// Landlock alone, the workspace's: see CannotHide), GlobsPartial the
	// globs whose search stopped early. Not flags.
	DenyGlobs    []string `json:"-"`
	PolicyDenied []string `json:"-"`
	Unhidden     []string `json:"-"`
	GlobsPartial []string `json:"-"`
	// SetEnv ("NAME=value") and UnsetEnv change the command's environment:
	// Gatehouse's own caches, sockets the command cannot reach.
	SetEnv   []string
	UnsetEnv []string
}

// NetCall is one command's identity at the app's filtering proxy.
type NetCall interface {
	// Env are the variables that send the command through the proxy.
	Env() []string
	// Domains are those the command reached and those refused, sorted.
	Domains() (reached, refused []string)
	// Close ends the identity once the command ended.
	Close()
}

// Namespaces reports whether the mount and PID namespaces confine p.
func (p Policy) Namespaces() bool { return p.Bwrap != "" }

// Args encodes p as command-line flags of the supervisor helper.
func (p Policy) Args() []string {
	var a []string
	add := func(flag string, vals []string) {
		for _, v := range vals {
			a = append(a, flag, v)
		}
	}
	add("-write", p.Writable)
	if p.NoNetwork {
		a = append(a, "-no-net")
	}
	if p.ProxyPort != 0 {
		a = append(a, "-proxy-port", strconv.Itoa(p.ProxyPort))
	}
	for _, port := range p.ConnectPorts {
		a = append(a, "-connect-port", strconv.Itoa(port))
	}
	if p.NetNS > 0 {
		a = append(a, "-netns", strconv.Itoa(p.NetNS))
	}
	if p.Bwrap != "" {
		a = append(a, "-bwrap", p.Bwrap)
	}
	if p.Nsenter != "" {
		a = append(a, "-nsenter", p.Nsenter)
	}
	add("-deny", p.DenyRead)
	add("-readback", p.ReadBack)
	add("-hide", p.HideSockets)
	add("-ro", p.ReadOnly)
	add("-pin", p.Pinned)
	if p.PrivateTmp != "" {
		a = append(a, "-tmp", p.PrivateTmp)
	}
	add("-read", p.ReadRoots)
	if p.AllowUnix {
		a = append(a, "-allow-unix")
	}
	add("-setenv", p.SetEnv)
	add("-unsetenv", p.UnsetEnv)
	return a
}

// Flags registers the flags of Args on fs, filling p.
func (p *Policy) Flags(fs *flag.FlagSet) {
	abs := func(name, usage string, dst *[]string) {
		fs.Func(name, usage, func(s string) error {
			if !filepath.IsAbs(s) {
				return fmt.Errorf("-%s %q is not absolute", name, s)
			}
			*dst = append(*dst, filepath.Clean(s))
			return nil
		})
	}
	abs("write", "folder the command may write below (repeatable)", &p.Writable)
	abs("deny", "path the command cannot read (repeatable)", &p.DenyRead)
	abs("readback", "folder inside a denied one the command may read, not write (repeatable)", &p.ReadBack)
	abs("hide", "socket or socket folder hidden from the command (repeatable)", &p.HideSockets)
	abs("ro", "path inside a writable folder kept read-only (repeatable)", &p.ReadOnly)
	abs("pin", "folder that cannot be renamed (repeatable)", &p.Pinned)
	abs("read", "with Landlock alone: path the command may read (repeatable)", &p.ReadRoots)
	fs.BoolVar(&p.NoNetwork, "no-net", false, "no network: TCP, MPTCP and UDP")
	fs.IntVar(&p.ProxyPort, "proxy-port", 0, "allow-list mode: the proxy's loopback port, the one TCP connect allowed")
	fs.Func("connect-port", "with -proxy-port: another port TCP connect may reach (repeatable)", func(s string) error {
		n, err := strconv.Atoi(s)
		if err != nil || n <= 0 || n > 65535 {
			return fmt.Errorf("-connect-port %q is not a port", s)
		}
		p.ConnectPorts = append(p.ConnectPorts, n)
		return nil
	})
	fs.IntVar(&p.NetNS, "netns", 0, "with -proxy-port: the pid of the keeper of the session's network namespace, where the command runs")
	fs.StringVar(&p.Bwrap, "bwrap", "", "bubblewrap: run in user, mount, PID and IPC namespaces")
	fs.StringVar(&p.Nsenter, "nsenter", "", "nsenter: join the namespaces of a holder (with -bwrap)")
	fs.StringVar(&p.PrivateTmp, "tmp", "", "folder mounted on /tmp (with -bwrap)")
	fs.BoolVar(&p.AllowUnix, "allow-unix", false, "allow Unix sockets")
	fs.Func("setenv", "NAME=value set in the command's environment (repeatable)", func(s string) error {
		if i := strings.IndexByte(s, '='); i <= 0 {
			return fmt.Errorf("-setenv %q is not NAME=value", s)
		}
		p.SetEnv = append(p.SetEnv, s)
		return nil
	})
	fs.Func("unsetenv", "NAME removed from the command's environment (repeatable)", func(s string) error {
		p.UnsetEnv = append(p.UnsetEnv, s)
		return nil
	})
}

// Environ applies SetEnv and UnsetEnv to env, each name once (the last
// of duplicates wins, as in os/exec: the programs a sandbox runs in
// between, bubblewrap included, would take the first).
func (p Policy) Environ(env []string) []string {
	drop := map[string]bool{}
	for _, n := range p.UnsetEnv {
		drop[n] = true
	}
	all := append(append([]string(nil), env...), p.SetEnv...)
	seen := map[string]bool{}
	out := make([]string, 0, len(all))
	for i := len(all) - 1; i >= 0; i-- {
		n, _, _ := strings.Cut(all[i], "=")
		if drop[n] || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, all[i])
	}
	slices.Reverse(out)
	return out
}

// Devices are the device files a command reads and writes (with ioctl);
// no other file below /dev is readable (a raw disk is all the secrets at
// once, a camera or a microphone are the user's).
var Devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/random", "/dev/urandom"}

// DeviceDirs hold device files made on the fly (pseudo-terminals) and shared
// memory (with namespaces, shared memory of the sandbox's own).
var DeviceDirs = []string{"/dev/pts", "/dev/shm"}

// ErrUnavailable is returned by Apply where the kernel has no Landlock.
var ErrUnavailable = errors.New("sandbox: this kernel has no Landlock (Linux 5.13+ with landlock in the LSM list)")

func getenv(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// RiskyWorkspace says why dir is a dangerous workspace, "" when it is not:
// the root folder or the home folder would let confined commands write
// nearly anywhere (and put ~/.ssh in reach).
func RiskyWorkspace(dir, home string) string {
	dir = filepath.Clean(dir)
	switch {
	case dir == "/":
		return "the root folder /: every command could write anywhere you can, and the sandbox would confine nothing"
	case home != "" && dir == filepath.Clean(home):
		return "your home folder: every command could write all your files, ~/.ssh included, and the sandbox would confine little"
	}
	return ""
}
