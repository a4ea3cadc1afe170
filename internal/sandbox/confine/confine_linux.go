// Package confine applies a sandbox.Policy with Landlock. Only the
// supervisor helper imports it: go-landlock brings libcap's psx, which must
// not reach the app's cgo build.
package confine

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"gatehouse/internal/sandbox"
)

// ApplyThread confines the calling OS thread, and every process it then
// forks, to p. The caller must hold the thread (runtime.LockOSThread) and
// fork the command from it (syscall.ForkExec runs on the calling thread).
// Confining one thread spares the all-threads dance go-landlock's Restrict
// needs on kernels before ABI 8, which costs milliseconds on a busy
// machine; the helper's other threads do not run the command. It fails where
// the kernel has no Landlock: the caller must not run the command then.
// Filesystem rights are those of ABI 5 (down-graded on older kernels);
// pathname UNIX sockets (ABI 9) stay reachable.
func ApplyThread(p sandbox.Policy) error {
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
	fd, flags, err := cfg.BestEffort().NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("sandbox: landlock: %w", err)
	}
	if fd < 0 {
		return sandbox.ErrUnavailable
	}
	defer syscall.Close(fd)
	// Both act on the calling thread only.
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0); e != 0 {
		return fmt.Errorf("sandbox: prctl(PR_SET_NO_NEW_PRIVS): %w", e)
	}
	if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("sandbox: landlock_restrict_self: %w", err)
	}
	return nil
}
