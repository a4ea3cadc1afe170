package cli

import (
	"fmt"
	"io"

	"gatehouse/internal/hooks"
	"gatehouse/internal/termsafe"
	"gatehouse/internal/trust"
)

// tellUntrustedHooks says on stderr, before the session opens, that the
// workspace's own hooks (its hooks file's, its agent definitions') wait
// for trust and so do not run (SessionStart included), listing every
// command and file as the window's banner does, a definition's with its
// agent's name; exec never trusts them itself.
func tellUntrustedHooks(stderr io.Writer, root, configDir string) {
	if configDir == "" {
		return
	}
	w, err := hooks.Waiting(root, trust.NewStore(configDir))
	if err != nil || w == nil {
		return
	}
	fmt.Fprintf(stderr, "gatehouse exec: this workspace's hooks (%s, and those of its agent definitions) are not trusted as they are now, so they do not run (open the folder in the window to review them):\n", trust.HooksFile)
	for _, f := range w.Files {
		line := "  " + termsafe.Line(f.Path)
		if f.Agent != "" {
			line += " (agent " + termsafe.Line(f.Agent) + ")"
		}
		if f.Error != "" {
			line += ": " + termsafe.Line(f.Error)
		}
		fmt.Fprintln(stderr, line)
		for _, c := range f.Commands {
			fmt.Fprintln(stderr, "    "+termsafe.Line(c))
		}
	}
}
