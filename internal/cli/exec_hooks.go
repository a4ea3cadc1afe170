package cli

import (
	"fmt"
	"io"

	"gatehouse/internal/hooks"
	"gatehouse/internal/termsafe"
	"gatehouse/internal/trust"
)

// tellUntrustedHooks says on stderr, before the session opens, that the
// workspace's own hooks wait for trust and so do not run (SessionStart
// included), listing every command and file as the window's banner does;
// exec never trusts them itself.
func tellUntrustedHooks(stderr io.Writer, root, configDir string) {
	if configDir == "" {
		return
	}
	w, err := hooks.Waiting(root, trust.NewStore(configDir))
	if err != nil || w == nil {
		return
	}
	fmt.Fprintf(stderr, "gatehouse exec: %s is not trusted as it is now, so its hooks do not run (open the folder in the window to review it):\n", trust.HooksFile)
	for _, f := range w.Files {
		line := "  " + termsafe.Line(f.Path)
		if f.Error != "" {
			line += ": " + termsafe.Line(f.Error)
		}
		fmt.Fprintln(stderr, line)
		for _, c := range f.Commands {
			fmt.Fprintln(stderr, "    "+termsafe.Line(c))
		}
	}
}
