package approval

import (
	"slices"

	"gatehouse/internal/protocol"
)

// covering returns the rules of tool that together cover a call with keys
// k, or nil when the call is not covered: the one matcher of standing
// rules, on the session's rules made standing ones (sessionRules), so a
// rule covers exactly what its dialog showed.
func (rs *Rules) covering(tool string, k keys) []protocol.Rule {
	list := rs.List()
	same := func(dir string) string { return dir }
	v, used := decideStanding(sessionRules(list, same), tool, standingKeys{keys: k, rel: k.cwd})
	if v != VerdictAllow {
		return nil
	}
	var out []protocol.Rule
	for _, u := range used {
		i := slices.IndexFunc(list, func(r protocol.Rule) bool { return r.ID == u.ID })
		out = append(out, list[i])
	}
	return out
}
