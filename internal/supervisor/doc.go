// Package supervisor is the small static helper that stands between the app
// and every shell command (cmd/gatehouse-supervisor, built with
// CGO_ENABLED=0 so it execs in a millisecond). Package proc starts it; it
//
//   - becomes a child subreaper, so every process the command starts stays
//     its descendant, double-forked daemons included;
//   - confines the command with the sandbox policy of its flags: with
//     namespaces it runs the command under bubblewrap, whose inner stage
//     (this helper again, -inner) applies Landlock and seccomp and execs
//     the shell; with Landlock alone it confines a thread other than its
//     own main one and forks the shell from it (see package sandbox);
//   - starts `shell -c command` in a process group of its own (-pty: a
//     session of its own whose controlling terminal is the helper's stdin);
//   - reports on fd 4 "pid N" once the shell runs, "exit N" when it ended
//     (128+n for signal n), or "error TEXT" when it could not start;
//   - kills every descendant when told to or when the app goes away: SIGTERM
//     (or SIGHUP) forwards SIGTERM to them all, SIGUSR1 sends SIGKILL until
//     none is left, and end of file on fd 3 (the app's lifeline: the app
//     holds its write end and never writes, so EOF means the app is gone,
//     crash included) sends SIGTERM, waits -grace, then SIGKILL;
//   - exits once it has no descendant left, with the shell's exit code.
//
// With -spare as its last flag the helper starts ahead of its command and
// waits for it on fd 5 (see Request), so that a command does not wait for
// the helper's own start-up; policy flags before it make the spare enter
// the sandbox's namespaces ahead too.
//
// With -hold first, the helper makes the namespaces of the policy flags
// that follow and holds them for the commands that join them (-join N):
// see package sandbox, Start-up cost.
//
// SIGINT and SIGQUIT are not the helper's: it is not in the command's group,
// and ignores them if sent.
package supervisor

import "gatehouse/internal/supervisor/wire"

// The protocol's names, shared with the app.
const (
	MsgPID     = wire.MsgPID
	MsgExit    = wire.MsgExit
	MsgError   = wire.MsgError
	LifelineFD = wire.LifelineFD
	StatusFD   = wire.StatusFD
	RequestFD  = wire.RequestFD
)
