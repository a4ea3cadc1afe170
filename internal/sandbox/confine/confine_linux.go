// Package confine applies a sandbox.Policy with Landlock. Only the
// supervisor helper imports it: go-landlock brings libcap's psx, which must
// not reach the app's cgo build.
package confine

import (
	"fmt"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"gatehouse/internal/sandbox"
)

// Apply confines the calling process (every thread) and what it exec's to
// p. It fails where the kernel has no Landlock: the caller must not run the
// command then. Filesystem rights are those of ABI 5 (down-graded on older
// kernels); pathname UNIX sockets (ABI 9) stay reachable.
func Apply(p sandbox.Policy) error {
	if sandbox.ABI() < 1 {
		return sandbox.ErrUnavailable
	}
	cfg := landlock.Config{HandledAccessFS: landlock.V5.HandledAccessFS}
	if p.DenyTCPConnect {
		cfg.HandledAccessNet = ll.AccessNetConnectTCP
	}
	rules := []landlock.Rule{
		landlock.RODirs("/"),
		landlock.RODirs("/dev").WithIoctlDev(),
		landlock.RWFiles(sandbox.Devices...).WithIoctlDev().IgnoreIfMissing(),
		landlock.RWDirs(sandbox.DeviceDirs...).WithIoctlDev().IgnoreIfMissing(),
	}
	if len(p.Writable) > 0 {
		rules = append(rules, landlock.RWDirs(p.Writable...).WithRefer().IgnoreIfMissing())
	}
	if err := cfg.BestEffort().Restrict(rules...); err != nil {
		return fmt.Errorf("sandbox: landlock: %w", err)
	}
	return nil
}
