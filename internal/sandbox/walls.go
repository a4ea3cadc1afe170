package sandbox

import (
	"slices"
	"strings"
)

// Walls names what p hides from reading: the user's read denies as written
// and every path they, and the sandbox's own rules, hide. A long-running
// process confined by a policy (a language server, a workspace's MCP
// server) keeps the walls it started under, so its owner restarts it when
// the name of the walls in force now differs ("" for nil).
func (p *Policy) Walls() string {
	if p == nil {
		return ""
	}
	deny := slices.Sorted(slices.Values(p.DenyRead))
	return strings.Join(p.DenyGlobs, "\x00") + "\x01" + strings.Join(deny, "\x00")
}
