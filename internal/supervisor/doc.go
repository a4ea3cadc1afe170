// Package supervisor is the small static helper that stands between the app
// and every shell command (cmd/gatehouse-supervisor, built with
// CGO_ENABLED=0 so it execs in a millisecond). Package proc starts it; it
//
//   - becomes a child subreaper, so every process the command starts stays
//     its descendant, double-forked daemons included;
//   - confines itself with the sandbox policy of its flags (Landlock), which
//     the command inherits;
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
// SIGINT and SIGQUIT are not the helper's: it is not in the command's group,
// and ignores them if sent.
package supervisor

// Protocol of the status pipe (fd 4), one line per message.
const (
	MsgPID   = "pid"
	MsgExit  = "exit"
	MsgError = "error"
)

// File descriptors the helper is given besides stdio.
const (
	LifelineFD = 3
	StatusFD   = 4
)
