package sandbox

import "strconv"

// The session's network namespace (allow-list mode with namespaces): a
// keeper process (the helper's -session-net stage, see package supervisor)
// runs in a user and network namespace of its own that bubblewrap made,
// with loopback only; the app bridges the proxy's port into it and
// forwards the session's servers' ports out of it (package proc). Holders
// are made inside it (their user namespace nested in the keeper's), so a
// holder replaced by a policy change keeps the same network: the
// session's servers, and what later commands reach on localhost, outlive
// any holder.

// KeeperArgs returns bubblewrap's command line that makes the session's
// network namespace (with a user namespace owning it; bubblewrap brings
// loopback up) and runs inner there.
func KeeperArgs(inner []string) []string {
	a := []string{"--unshare-user", "--unshare-net", "--die-with-parent", "--dev-bind", "/", "/", "--"}
	return append(a, inner...)
}

// NetPrefix is the command line that runs what follows in the session's
// network namespace (NetNS): nsenter joins the keeper's user namespace
// (whose owner the caller is) and then its network namespace (joining a
// network namespace needs a capability in the user namespace that owns
// it). Without NetNS, nil. bubblewrap run after it nests its own user
// namespace in the keeper's.
func (p Policy) NetPrefix() []string {
	if p.NetNS <= 0 || p.Nsenter == "" {
		return nil
	}
	k := "/proc/" + strconv.Itoa(p.NetNS) + "/ns/"
	return []string{p.Nsenter, "--preserve-credentials", "--user=" + k + "user", "--net=" + k + "net", "--"}
}

// InSessionNet reports whether the command runs in the session's network
// namespace (loopback only, the proxy bridged in): the network is then
// confined by address, and Landlock's TCP rule is not needed.
func (p Policy) InSessionNet() bool {
	return p.NetNS > 0 && p.ProxyPort != 0 && p.Namespaces() && p.Nsenter != ""
}
