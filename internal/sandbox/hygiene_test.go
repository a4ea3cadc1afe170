//go:build linux

package sandbox_test

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// A confined command holds no capability (not even inside the sandbox's
// own user namespace, where joining it with setns gives the full set) and
// no descriptor but its stdin, stdout and stderr: nothing its helper
// inherited or used (the lifeline, the status pipe, a spare's sockets)
// reaches it. One exception, harmless and checked as such: a command that
// joins a holder's namespaces through nsenter at once (not through a
// spare that entered them ahead) keeps nsenter's descriptors, which name
// the namespaces it is in already, the sandbox's root and the workspace.
// The first command runs under a helper started for it, the next one back
// to back, the last ones after a pause (under a spare that entered the
// sandbox ahead).
func TestConfinedCommandsHoldNoCapabilityOrDescriptor(t *testing.T) {
	layered(t, boxOpts{on: true}, func(t *testing.T, b *box) {
		for i := range 4 {
			if i >= 2 {
				time.Sleep(200 * time.Millisecond) // a spare waits in the sandbox ahead
			}
			out := b.mustRun(t, `grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb):' /proc/self/status; for n in user mnt ipc net; do echo "ns $(readlink /proc/$$/ns/$n)"; done; ls -l /proc/$$/fd/; true`)
			var own []string
			for _, line := range strings.Split(out, "\n") {
				if ns, ok := strings.CutPrefix(line, "ns "); ok {
					own = append(own, ns)
				}
			}
			for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
				f := strings.Fields(line)
				switch {
				case len(f) == 2 && strings.HasPrefix(f[0], "Cap") && f[0] != "CapBnd:" && strings.Trim(f[1], "0") != "":
					t.Errorf("command %d holds capabilities: %s", i, line)
				case len(f) > 3 && f[len(f)-2] == "->" && !slices.Contains([]string{"0", "1", "2"}, f[len(f)-3]):
					target := f[len(f)-1]
					if !b.joins || !(slices.Contains(own, target) || target == "/" || target == b.ws) {
						t.Errorf("command %d inherited a descriptor: %s", i, line)
					}
				}
			}
		}
	})
}
