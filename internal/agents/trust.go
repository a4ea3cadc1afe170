package agents

import "gatehouse/internal/trust"

// WorkspaceTrust is LoadOptions.Trusted backed by folder trust: a
// workspace's definitions load only while its .gatehouse/agents/, as it is
// now, is trusted in ts (trust.KindAgents). A folder without definitions,
// or one the trust store cannot read, is not trusted.
func WorkspaceTrust(ts *trust.Store) func(workspace string) bool {
	return func(ws string) bool {
		c, err := trust.Read(ws, trust.KindAgents)
		if err != nil || c.Empty() {
			return false
		}
		ok, err := ts.Trusted(ws, trust.KindAgents, c)
		return err == nil && ok
	}
}
