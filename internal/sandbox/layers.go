package sandbox

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Layers are the confinement layers this system has, found once at start
// (Detect).
type Layers struct {
	// ABI is the kernel's Landlock ABI, 0 without Landlock.
	ABI int `json:"abi"`
	// Bwrap is bubblewrap's path where it runs with unprivileged user
	// namespaces; "" when namespaces are unavailable.
	Bwrap string `json:"bwrap,omitempty"`
	// Nsenter is nsenter's path, with Bwrap: commands join namespaces
	// made ahead (see package doc, Start-up cost). Not shown.
	Nsenter string `json:"-"`
	// NoNamespaces says why there are none, in plain words.
	NoNamespaces string `json:"noNamespaces,omitempty"`
	// Seccomp: the kernel filters system calls.
	Seccomp bool `json:"seccomp"`
}

// Namespaces reports whether commands get mount, PID and network
// namespaces.
func (l Layers) Namespaces() bool { return l.Bwrap != "" }

// LandlockOnly is the value of $GATEHOUSE_SANDBOX_LAYERS that makes Detect
// report no namespaces (tests, and a user who wants the floor alone).
const LandlockOnly = "landlock"

// Detect finds the layers: Landlock's ABI, seccomp, and whether bubblewrap
// starts a command in user, PID and network namespaces here (it runs it
// once, ≈ 3 ms). $GATEHOUSE_SANDBOX_LAYERS=landlock leaves namespaces out.
func Detect() Layers {
	l := Layers{ABI: ABI(), Seccomp: seccompAvailable()}
	if os.Getenv("GATEHOUSE_SANDBOX_LAYERS") == LandlockOnly {
		l.NoNamespaces = "namespaces were turned off ($GATEHOUSE_SANDBOX_LAYERS=landlock)"
		return l
	}
	bw, err := exec.LookPath("bwrap")
	if err != nil {
		bw = "/usr/bin/bwrap"
		if _, err := os.Stat(bw); err != nil {
			l.NoNamespaces = "bubblewrap (bwrap) is not installed"
			return l
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bw, "--unshare-user", "--unshare-pid", "--unshare-net", "--unshare-ipc",
		"--die-with-parent", "--dev-bind", "/", "/", "--proc", "/proc", "--", "/bin/sh", "-c", "exit 0").CombinedOutput()
	if err != nil {
		l.NoNamespaces = "bubblewrap cannot create namespaces here (" + strings.TrimSpace(string(out)) + ": " + err.Error() + ")"
		return l
	}
	l.Bwrap = bw
	if ns, err := exec.LookPath("nsenter"); err == nil && filepath.IsAbs(ns) {
		l.Nsenter = ns
	}
	return l
}

// seccompAvailable reads the Seccomp line of /proc/self/status (present
// when the kernel has seccomp).
func seccompAvailable() bool {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Seccomp:"); ok {
			_, err := strconv.Atoi(strings.TrimSpace(v))
			return err == nil
		}
	}
	return false
}
