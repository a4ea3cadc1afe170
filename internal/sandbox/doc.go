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
//     in the user, mount and IPC namespaces (and a network namespace with
//     loopback only when the network is off; the session's network
//     namespace in the allow-list mode, see The session's network) that
//     bubblewrap made for its policy (see Start-up cost; with a bubblewrap
//     of its own, a PID namespace too). The mount namespace holds what Landlock cannot:
//     empty mounts over the
//     deny-read list and over the session's socket folders, .git bound onto
//     itself (a mount point cannot be renamed, so `mv .git x` fails) with
//     .git/hooks, .git/config, .git/commondir, .git/modules, .gatehouse/,
//     .envrc, .vscode/ and .idea/ read-only mounts inside (objects, refs,
//     index and logs stay writable: commits work), a /dev/shm of its own, a
//     private /tmp (the session's scratch/tmp) when TMPDIR is /tmp, and a
//     fresh /proc (with a PID namespace of its own).
//   - Landlock, always (the floor): writes only below Policy.Writable (the
//     workspace, temp, the session's scratch folder and Gatehouse's own tool
//     caches, see Caches), TCP connect refused with the network off, or in
//     the network's allow-list mode, outside the session's network
//     namespace (Landlock alone, no nsenter), allowed only to the app's
//     filtering proxy's port and the session's own servers' ports
//     (Policy.ProxyPort: a port, on any address), and
//     scoping (ABI 6): no signal and no abstract Unix socket outside the
//     command's own domain; below /dev only the shell's devices, ptys and
//     shared memory (no raw disk, kernel log, console or camera).
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
// # The user's read denies
//
// The read denies of the user's standing policy (a deny rule on read_file
// with files, policy.ReadDenies: `.env`, `keys/**`) hold for commands too
// (Spec.DenyGlobs). Each command's policy matches the globs against the
// workspace when it starts (ExpandGlobs: not inside .git, no symbolic
// link to a folder followed, at most 20,000 folders listed per glob) and
// adds what matched, symbolic links resolved, to DenyRead (from a linked
// worktree, what they match in the repository's other checkouts too): with
// namespaces a denied file is an unreadable empty mount (/dev/null bound
// read-only, on a nodev mount: open fails, so `cat`, `cp` and python's
// open fail alike, and `rm` or a rename of it fails too, which Explain
// says), a denied folder an empty read-only tmpfs (files made in it later
// are hidden as well). A match new since the last command (a .env made
// after the first command, or one removed and made again, which often
// gets the same inode number back: HolderKey takes when each denied path
// was made) changes the holder's key, so a new holder is made; a spare
// that made a bubblewrap ahead for the old paths is dropped (proc), and
// one that joined the old holder falls back by itself. A policy edit holds
// for the next command: the policy is read again for each one.
//
// What stays open, said in the UI (Status.PolicyReads, CannotHide):
// Landlock alone grants the workspace whole and cannot hide a path inside
// it, so without namespaces commands read the denied files (the file
// tools still refuse them); a hard link made before to a denied file
// elsewhere reads it (a command cannot make one: the mount is another
// file system); git's objects hold what was committed (`git show
// HEAD:.env`); a file a command makes itself is readable by that command
// until the next one starts.
//
// # The session's network (allow-list mode)
//
// In the network's allow-list mode, with namespaces and nsenter, a
// confined command reaches nothing but the proxy and the session's own
// servers, by address: it runs in the session's network namespace, where
// only loopback exists (netns.go). The namespace belongs to the session
// (package proc's registry), not to a holder: a holder is replaced
// whenever its policy key changes, and the session's servers, which later
// commands reach on localhost, must outlive it. bubblewrap cannot join an
// existing network namespace, and the threaded Go helper cannot setns
// into a user namespace, so:
//
//   - a keeper (the helper's -session-net stage) runs in the user and
//     network namespaces bubblewrap made for the session (KeeperArgs;
//     bubblewrap brings loopback up). It listens on 127.0.0.1:ProxyPort
//     inside and hands that socket to the app, whose proxy serves it as
//     its own port (ServeProxy; the bridge stays outside the command,
//     which seccomp refuses Unix sockets, and the proxy tells commands
//     apart by the identity in their proxy URL, not by address). It also
//     dials the namespace's loopback for the app: the app forwards each
//     port the port scan finds the session's processes listening on (read
//     from the namespace's own /proc/<pid>/net/tcp) from this machine's
//     loopback, for the user's browser and the panel's port links;
//   - holders are made inside it (NetPrefix: nsenter joins the keeper's
//     user namespace, whose owner the app's user is, then its network
//     namespace; bubblewrap nests the holder's user namespace in the
//     keeper's), and a command joins in two steps (JoinArgs): the keeper's
//     user and network namespaces, then the holder's user, mount and IPC
//     namespaces. A command with a bubblewrap of its own (no holder) is
//     started the same way (NetPrefix);
//   - Landlock's TCP rule is left out there (every address in the
//     namespace is the session's), so the allow-list works on kernels
//     without it (before Linux 6.7); seccomp still refuses every inet
//     socket but TCP. Abstract Unix sockets are per network namespace, so
//     the host's are out of reach as well.
//
// Two sessions' servers on the same port both run (each in its own
// namespace); this machine's port goes to the first forwarded (or to the
// user's program that holds it), and the other is not forwarded while the
// port is taken (each port scan tries again). MCP servers a workspace
// supplies, and kernels or setups without nsenter or namespaces, keep the
// port rule, and the Sandbox line says what it lets through (NetByPort).
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
// # Start-up cost: a holder per policy, joined by each command
//
// Profiled (bash -c true, wall time, one run on a busy 2-core machine):
// bash alone 1.3 ms; bubblewrap with user, PID and IPC namespaces 3.9 to
// 7 ms, 9 to 13 ms with the policy's ~25 mounts (each bind is a mount and
// a remount, and the mount and PID namespaces are torn down after the
// command, which the exit waits for); the helper's inner Go stage 2.5 ms
// more (a Go runtime start, the Landlock ruleset). Three process starts and
// a namespace set-up and teardown per command: 4.2 to 4.5x a direct exec
// back to back, 5 to 6x its CPU.
//
// So the namespaces are made once per policy, not per command: a holder
// (the helper with -hold) runs bubblewrap with the policy's mounts but no
// PID namespace and keeps it waiting; a command's helper confines a
// thread of its own (Landlock, seccomp: as with Landlock alone) and forks
// nsenter from it, which joins the holder's user, mount, IPC (and network)
// namespaces, takes its root and enters the command's folder in that tree,
// and execs the shell: one small C program's start per command, nothing
// to tear down. nsenter gets the namespaces and folders as descriptors the
// helper opened before it confined the thread (Landlock's ptrace scope
// refuses /proc/<holder> to a confined process); a folder opened outside
// the mount namespace would leave the command in the app's tree, which is
// why --wd is opened through the holder's root (JoinFiles).
//
// What that changes: commands stay in the app's PID namespace, where their
// own helper is their subreaper as without a sandbox (so Stop and a crash
// of the app still end every process of the tree), and Landlock's signal
// and ptrace scope (ABI 6) keep them from signalling or inspecting
// anything outside their own domain, each command a domain of its own; a
// mount made on a path follows that file, so a holder is keyed by the
// identity of every path it mounts (HolderKey) and replaced when git
// renames a new .git/config over the old one or a denied folder is made
// again. Without nsenter (Nsenter ""), each command gets a bubblewrap of
// its own, PID namespace included.
//
// A spare helper, started after each command for the next one, waits
// idleAhead for its command; if none comes (an agent's next command comes
// after a model's turn), it enters the holder's namespaces ahead: the
// inner stage waits there, confined, for the command and execs it, so a
// command after a pause costs no process start at all. A command that
// comes at once (back to back), or before that inner stage said it is
// ready (a busy machine), joins by itself, without waiting for an inner
// stage it would not need. make bench-sandbox measures both; on this
// 2-core machine under a load of 11 to 16, against main in the same
// minutes: back to back 5.2 to 5.5x became 2.4 to 2.8x, after a pause 1.3
// to 1.5x became 1.0 to 1.2x, CPU per exec 4.2 to 4.5x became 2.2x.
//
// The spare starts once the command before ended (or a few milliseconds
// into a long one), not beside it: a Go process's start beside the
// command's own took 0.3 to 0.4 of the 1.3 to 1.4x after a pause on two
// cores (measured: 1.42x, then 1.02 to 1.11x with the spare started after).
//
// # Capabilities and descriptors
//
// A command holds no capability: the confined thread empties its sets and
// its bounding set before the fork (confine.DropCapabilities), which only
// matters when Gatehouse runs as root. Joining a user namespace with setns
// gives every capability in it, and an exec as uid 0 there keeps them; so
// a holder made by root runs as RootInside (65534) inside its namespaces,
// whose exec then drops them, and the inner stage that a spare runs drops
// them again itself. The helper marks every descriptor it inherited
// close-on-exec, so only stdin, stdout and stderr reach the command; a
// command that joins through nsenter at once keeps nsenter's descriptors
// (the namespaces it is in already, the sandbox's root and its folder:
// nothing it cannot reach otherwise), since closing them would cost an
// inner stage's Go start per command (back to back 2.3x became 3.0x).
package sandbox
