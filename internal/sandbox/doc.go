// Package sandbox describes how a command is confined by the OS and what
// that confinement says to the user. The app builds a Policy (Build) and
// passes it to the supervisor helper as flags (Args, Flags); the helper
// applies it (package confine, package supervisor).
//
// # Layers
//
// Every confined command gets every layer this system has (Detect, once,
// shown in Settings):
//
//   - Namespaces, where unprivileged user namespaces work: the command runs
//     under bubblewrap in its own user, mount, PID and IPC namespaces (and a
//     network namespace with loopback only when the network is off). The
//     mount namespace holds what Landlock cannot: empty mounts over the
//     deny-read list and over the session's socket folders, .git bound onto
//     itself (a mount point cannot be renamed, so `mv .git x` fails) with
//     .git/hooks, .git/config, .gatehouse/ and .envrc read-only mounts
//     inside (objects, refs, index and logs stay writable: commits work), a
//     private /tmp (the session's scratch/tmp) when TMPDIR is /tmp, and a
//     fresh /proc. The PID namespace hides every process outside the tree.
//   - Landlock, always (the floor): writes only below Policy.Writable (the
//     workspace, temp, the session's scratch folder and Gatehouse's own tool
//     caches, see Caches), TCP connect refused with the network off, or in
//     the network's allow-list mode allowed only to the app's filtering
//     proxy and the session's own servers' ports (Policy.ProxyPort; why a
//     port rule and not a network namespace: package netproxy), and
//     scoping (ABI 6): no signal and no abstract Unix socket outside the
//     command's own domain.
//   - seccomp: socket(AF_UNIX) refused unless the user allowed a socket
//     (seccomp cannot see the path a connect names; socketpair stays), with
//     the network off and no network namespace, or in allow-list mode,
//     every AF_INET/AF_INET6 socket but plain TCP (MPTCP, UDP, SCTP, raw),
//     io_uring (it opens sockets without the socket call), TIOCSTI, and
//     every system call of another architecture.
//
// Where namespaces are unavailable (or GATEHOUSE_SANDBOX_LAYERS=landlock),
// Landlock and seccomp hold alone: reads are granted per top-level folder
// and per entry of the folders on the way to a denied path (ReadGrants),
// and the guarded workspace paths are put back after each command (Guard)
// instead of being read-only; Status.Missing says what that misses.
//
// # Why bubblewrap, and where the helper stays
//
// The static helper cannot unshare a user namespace itself once its Go
// runtime has threads; it would need a re-executed stage that does the
// mounts (CLONE_NEWUSER through SysProcAttr, uid maps written from outside,
// then every mount, pivot and /proc by hand). bubblewrap does exactly that,
// is installed wherever Gatehouse runs (WebKitGTK depends on it on Debian
// and Ubuntu), and costs ≈ 3 to 6 ms per start here, the same order as a
// second re-exec of the helper. So the helper (outside, unconfined) runs
// `bwrap … -- helper -inner <policy> -- shell -c command`; the inner stage
// applies Landlock and seccomp after the mounts (a thread under Landlock
// cannot mount) and execs the shell. The helper keeps the lifeline, the
// ledger's process group and the kill of the whole tree, and the command
// cannot signal it: it is in another PID namespace, and Landlock's signal
// scope is checked against the helper's thread-group leader, which is never
// the confined thread (with Landlock alone the helper confines and forks
// from another thread, which then ends).
//
// bubblewrap runs without --new-session, so a terminal command keeps its
// controlling terminal (job control works); TIOCSTI is refused by seccomp
// instead, and the terminal is the command's own pseudo-terminal anyway.
//
// # Start-up cost
//
// A spare helper, started after each command for the next one, enters the
// namespaces ahead: it starts bubblewrap with the last command's policy,
// whose inner stage opens the Landlock ruleset, assembles the seccomp
// program and waits for its command; a request with exactly that policy
// and no terminal runs there (make bench-sandbox).
package sandbox
