// Package proc runs the shell commands of a session: one-shot commands
// (Exec) and long-running processes (Start) kept in a Registry, which owns
// them and kills them all when the session closes (CloseAll).
//
// Every command runs as `shell -c command` in a process group of its own;
// Start also gives it a pseudo-terminal and its own session, so tools that
// check for a terminal behave as in a real one. Stop and CloseAll signal the
// whole group (and, for Start, every process of the terminal's session):
// SIGTERM, a grace period, then SIGKILL.
//
// With Options.Supervisor, each command runs under the supervisor helper
// (package supervisor): the helper is a child subreaper, so Stop and CloseAll
// reach every process the command started, one that called setsid(2) to
// leave its session included; it kills them all when the app dies, crash
// included; and it confines the command with Options.Sandbox's policy.
// Without it, a process that leaves its session escapes, and a crash of the
// app leaves the groups running: Options.Ledger records them so that the
// next run finds them (FindLeftovers, StopLeftover).
//
// Output of a started process lands in a Ring of fixed size addressed by
// absolute offsets; Logs pages through it and says when a reader fell behind.
//
// # Delivery rules of Observer events
//
//   - Started, Updated and Exited are always delivered, in order, for every
//     process; none is dropped however slow the Observer is.
//   - Output is coalesced: at most one Output per process per tick of the
//     ticker (50 ms by default), carrying all the output since the previous
//     one, or, when the process wrote more than MaxChunk bytes in between, the
//     last MaxChunk bytes (the gap shows as Chunk.Offset > previous
//     NextOffset). A slow Observer makes ticks drop, never events pile up.
//     While a process runs, a chunk ends on a UTF-8 boundary.
//   - Exited comes at the first tick after the process ended, after the
//     Output carrying its last bytes. Output of what is left of its group (a
//     background child still writing to the terminal) may follow.
//   - Close delivers the last events, then the Observer is never called again.
//
// Ports: a process's Info.Ports lists the TCP ports its group listens on
// (read from /proc on Linux, every PortScan, in the socket table of the
// network namespace each process is in) and the ports of local URLs it
// printed (http://localhost:5173); a change is delivered as Updated. In
// the network's allow-list mode with namespaces, commands run in the
// session's network namespace (netns_unix.go), and the ports the scan
// finds are forwarded from this machine's loopback into it.
package proc
