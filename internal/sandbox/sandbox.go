// Package sandbox describes how a command is confined by the OS (Landlock on
// Linux) and applies that confinement to the calling process, which then
// exec's the command: the supervisor helper calls Apply, the app only builds
// a Policy and passes it as arguments (Args, Parse).
//
// Landlock only grants: a confined command reads and executes everywhere the
// user can, and writes only below the folders of the policy (the workspace,
// the temp folder, a scratch folder, the tool caches of CacheDirs) and to the
// devices shells use. TCP connect can be denied; UDP cannot be (Landlock
// before ABI 10 has no rights on UDP, and DNS needs it).
package sandbox

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Modes of the sandbox setting.
const (
	// ModeWorkspaceWrite confines commands to writing in the workspace,
	// temp, scratch and the tool caches. The default where available.
	ModeWorkspaceWrite = "workspace-write"
	// ModeOff runs commands unconfined.
	ModeOff = "off"
)

// ValidMode reports whether m is a mode ("" is the default).
func ValidMode(m string) bool { return m == "" || m == ModeWorkspaceWrite || m == ModeOff }

// Policy is the confinement of one command.
type Policy struct {
	// Writable folders: the command may create, change and remove files
	// below them, and move files between them. Missing ones are skipped.
	Writable []string
	// DenyTCPConnect refuses connect(2) on TCP sockets (listening stays
	// allowed). UDP cannot be denied.
	DenyTCPConnect bool
}

// Devices are the device files a shell writes to; they get write and ioctl
// rights (a terminal's settings are ioctls).
var Devices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/ptmx", "/dev/random", "/dev/urandom"}

// DeviceDirs hold device files made on the fly (pseudo-terminals) and shared
// memory.
var DeviceDirs = []string{"/dev/pts", "/dev/shm"}

// Args encodes p as command-line flags of the supervisor helper.
func (p Policy) Args() []string {
	var a []string
	for _, w := range p.Writable {
		a = append(a, "-write", w)
	}
	if p.DenyTCPConnect {
		a = append(a, "-deny-tcp")
	}
	return a
}

// Flags registers the flags of Args on fs, filling p.
func (p *Policy) Flags(fs *flag.FlagSet) {
	fs.Func("write", "folder the command may write below (repeatable)", func(s string) error {
		if !filepath.IsAbs(s) {
			return fmt.Errorf("writable folder %q is not absolute", s)
		}
		p.Writable = append(p.Writable, s)
		return nil
	})
	fs.BoolVar(&p.DenyTCPConnect, "deny-tcp", false, "refuse TCP connect")
}

// Spec is what the app knows when it builds a policy.
type Spec struct {
	Workspace string // the folder the command may change (its roots)
	Scratch   string // a per-session scratch folder, "" for none
	Home      string // "" for none
	Env       []string
	DenyTCP   bool
}

// Build returns the policy of a command: the workspace, temp, scratch and
// the tool caches (CacheDirs) writable.
func Build(s Spec) Policy {
	w := []string{s.Workspace, TempDir(s.Env)}
	if s.Scratch != "" {
		w = append(w, s.Scratch)
	}
	w = append(w, CacheDirs(s.Home, s.Env)...)
	var out []string
	for _, d := range w {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		d = filepath.Clean(d)
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return Policy{Writable: out, DenyTCPConnect: s.DenyTCP}
}

// TempDir is $TMPDIR of env, else /tmp.
func TempDir(env []string) string {
	if t := getenv(env, "TMPDIR"); t != "" {
		return t
	}
	return "/tmp"
}

// CacheDirs lists, in one place, the caches everyday tools write to: a
// confined `npm ci`, `go test`, `cargo build` or `pip install` needs them.
// Variables of env that move a cache (GOMODCACHE, GOCACHE, CARGO_HOME,
// npm_config_cache, XDG_CACHE_HOME...) are honoured.
func CacheDirs(home string, env []string) []string {
	var out []string
	add := func(p string) {
		if p != "" && filepath.IsAbs(p) {
			out = append(out, p)
		}
	}
	inHome := func(rel string) string {
		if home == "" {
			return ""
		}
		return filepath.Join(home, rel)
	}
	for _, v := range []string{"GOMODCACHE", "GOCACHE", "CARGO_HOME", "RUSTUP_HOME", "npm_config_cache", "XDG_CACHE_HOME", "PIP_CACHE_DIR", "YARN_CACHE_FOLDER", "GRADLE_USER_HOME", "BUN_INSTALL"} {
		add(getenv(env, v))
	}
	if gp := getenv(env, "GOPATH"); gp != "" {
		add(filepath.Join(filepath.SplitList(gp)[0], "pkg"))
	}
	for _, rel := range HomeCaches {
		add(inHome(rel))
	}
	return out
}

// HomeCaches are the cache folders below $HOME a confined command may write.
var HomeCaches = []string{
	".npm", ".cache", "go/pkg", ".cargo", ".rustup", ".yarn", ".pnpm-store",
	".local/share/pnpm", ".bun", ".gradle", ".m2", ".deno", ".node-gyp",
	".config/go/telemetry",
}

func getenv(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

// Status says whether commands run confined, for the UI.
type Status struct {
	Mode string `json:"mode"` // the setting: workspace-write or off
	// Available: the kernel has Landlock (ABI > 0) and the helper exists.
	Available bool `json:"available"`
	ABI       int  `json:"abi,omitempty"`
	// Confined: commands started now run confined.
	Confined bool `json:"confined"`
	// Reason says why commands are not confined, in plain words.
	Reason string `json:"reason,omitempty"`
}

// ErrUnavailable is returned by Apply where the kernel has no Landlock.
var ErrUnavailable = errors.New("sandbox: this kernel has no Landlock (Linux 5.13+ with landlock in the LSM list)")

// HomeDir is $HOME, else os.UserHomeDir.
func HomeDir(env []string) string {
	if h := getenv(env, "HOME"); h != "" {
		return h
	}
	h, _ := os.UserHomeDir()
	return h
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
