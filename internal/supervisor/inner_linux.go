package supervisor

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"syscall"

	"gatehouse/internal/sandbox"
	"gatehouse/internal/sandbox/confine"
	"gatehouse/internal/supervisor/wire"
)

// namespaced returns the command line that runs argv in the namespaces of
// p: bubblewrap sets up the user, mount, PID, IPC (and network) namespaces
// and their mounts, then runs this helper's inner stage, which applies
// Landlock and seccomp (they must come after the mounts: a thread under
// Landlock cannot mount) and execs argv. The helper itself stays outside:
// it keeps the lifeline, the ledger's group and the kill of the tree, and
// the command cannot signal it (another PID namespace).
func namespaced(p sandbox.Policy, argv []string) ([]string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("sandbox: cannot find the helper's own path: %w", err)
	}
	dir, _ := os.Getwd()
	inner := append(append([]string{self, wire.InnerFlag}, p.Args()...), "--")
	inner = append(inner, argv...)
	return append([]string{p.Bwrap}, p.BwrapArgs(dir, inner)...), nil
}

// inner is the stage inside the namespaces: it confines its thread with
// Landlock and seccomp and execs the command from it, so the command is
// the process bubblewrap started (no helper stays inside).
func inner(args []string) int {
	fs := flag.NewFlagSet("gatehouse-supervisor "+wire.InnerFlag, flag.ContinueOnError)
	var pol sandbox.Policy
	pol.Flags(fs)
	if err := fs.Parse(args); err != nil || fs.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "gatehouse-supervisor: inner stage: no command or bad flags:", err)
		return 2
	}
	argv := fs.Args()
	runtime.LockOSThread() // never unlocked: the thread execs or the process exits
	if err := confine.ApplyThread(pol); err != nil {
		fmt.Fprintln(os.Stderr, "gatehouse-supervisor:", err)
		return 126
	}
	err := syscall.Exec(argv[0], argv, os.Environ())
	fmt.Fprintf(os.Stderr, "gatehouse-supervisor: cannot run %s: %v\n", argv[0], err)
	return 127
}
