// Package confine applies a sandbox.Policy's Landlock and seccomp layers to
// the calling thread. Only the supervisor helper imports it: go-landlock
// brings libcap's psx, which must not reach the app's cgo build.
package confine

import (
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"gatehouse/internal/sandbox"
)

// ApplyThread confines the calling OS thread, and every process it then
// forks or execs, to p: Landlock (writes, reads with ReadRoots, TCP
// connect with NoNetwork, or but to the proxy's and ConnectPorts with
// ProxyPort, and scoping: no signal and no abstract Unix
// socket outside its own domain) then seccomp (Filter), with no
// capability left (DropCapabilities). The caller must
// hold the thread (runtime.LockOSThread) and fork or exec the command from
// it. Confining one thread spares the all-threads dance go-landlock's
// Restrict needs on kernels before ABI 8; a signal to the helper is checked
// against its thread-group leader, which stays outside the domain, so the
// command cannot signal its helper either. It fails where the kernel has no
// Landlock: the caller must not run the command then.
func ApplyThread(p sandbox.Policy) error {
	c, err := Prepare(p)
	if err != nil {
		return err
	}
	return c.Apply()
}

// Confinement is a policy made ready to apply: the Landlock ruleset open
// and the seccomp program assembled, so that a spare waiting for its
// command spends nothing on them once it comes.
type Confinement struct {
	fd     int
	flags  uint32
	filter []syscall.SockFilter
}

// Prepare makes p ready to apply; it fails where the kernel has no
// Landlock.
func Prepare(p sandbox.Policy) (*Confinement, error) {
	if sandbox.ABI() < 1 {
		return nil, sandbox.ErrUnavailable
	}
	cfg := landlock.Config{HandledAccessFS: landlock.V5.HandledAccessFS,
		Scoped: landlock.ScopedSet(ll.ScopeAbstractUnixSocket | ll.ScopeSignal)}
	if p.NoNetwork || p.ProxyPort != 0 && !p.InSessionNet() {
		cfg.HandledAccessNet = ll.AccessNetConnectTCP
	}
	rules := []landlock.Rule{
		// /dev is listed; of its files only the devices a command uses
		// are read and written.
		landlock.PathAccess(landlock.AccessFSSet(ll.AccessFSReadDir), "/dev"),
		landlock.RWFiles(sandbox.Devices...).WithIoctlDev().IgnoreIfMissing(),
		landlock.RWDirs(sandbox.DeviceDirs...).WithIoctlDev().IgnoreIfMissing(),
	}
	if p.HolderRoot != "" {
		rules = append(rules, landlock.RWDirs(p.HolderRoot+"/dev/shm").IgnoreIfMissing())
	}
	roots := p.ReadRoots
	if len(roots) == 0 {
		// With namespaces (denied paths are empty mounts): / is listed,
		// and every folder in it read but /dev.
		rules = append(rules, landlock.PathAccess(landlock.AccessFSSet(ll.AccessFSReadDir), "/"))
		names, _ := os.ReadDir("/")
		for _, n := range names {
			// Folders only: a file at the top is a swap file or the like.
			if fi, err := os.Stat("/" + n.Name()); err == nil && fi.IsDir() && n.Name() != "dev" {
				roots = append(roots, "/"+n.Name())
			}
		}
	}
	{
		var dirs, files []string
		for _, r := range roots {
			if fi, err := os.Stat(r); err == nil && fi.IsDir() {
				dirs = append(dirs, r)
			} else if err == nil {
				files = append(files, r)
			}
		}
		rules = append(rules, landlock.RODirs(dirs...).IgnoreIfMissing(), landlock.ROFiles(files...).IgnoreIfMissing())
	}
	if len(p.Writable) > 0 {
		rules = append(rules, landlock.RWDirs(p.Writable...).WithRefer().IgnoreIfMissing())
	}
	if p.ProxyPort != 0 && !p.InSessionNet() {
		if sandbox.ABI() < sandbox.NetABI {
			return nil, fmt.Errorf("sandbox: the network allow-list needs Landlock's TCP rule (ABI %d, Linux 6.7) or the session's network namespace, which did not start", sandbox.NetABI)
		}
		for _, port := range append([]int{p.ProxyPort}, p.ConnectPorts...) {
			rules = append(rules, landlock.ConnectTCP(uint16(port)))
		}
	}
	fd, flags, err := cfg.BestEffort().NewRulesetFD(rules...)
	if err != nil {
		return nil, fmt.Errorf("sandbox: landlock: %w", err)
	}
	if fd < 0 {
		return nil, sandbox.ErrUnavailable
	}
	filter, err := program(p)
	if err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return &Confinement{fd: fd, flags: flags, filter: filter}, nil
}

// Apply confines the calling thread (see ApplyThread); call it once.
func (c *Confinement) Apply() error {
	defer syscall.Close(c.fd)
	// All four act on the calling thread only.
	if err := DropCapabilities(); err != nil {
		return err
	}
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0, 0); e != 0 {
		return fmt.Errorf("sandbox: prctl(PR_SET_NO_NEW_PRIVS): %w", e)
	}
	if err := ll.LandlockRestrictSelf(c.fd, c.flags); err != nil {
		return fmt.Errorf("sandbox: landlock_restrict_self: %w", err)
	}
	return load(c.filter)
}
