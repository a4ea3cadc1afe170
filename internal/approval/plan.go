package approval

import (
	"encoding/json"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// planCall describes planned call prep of tool name and makes its
// CallPlan: the gate's and Check's one way, so both decide alike.
// Read-only is what the plan says and nothing else
// (tools.Prepared.ReadOnly: no writes, no runs, no opaque effect); a plan
// that writes or runs is never read-only, whatever the tool claims. A call
// without a plan (prep nil: a caller that keys it by its tool) is not
// read-only.
func (v view) planCall(name string, args json.RawMessage, prep *tools.Prepared) (protocol.Preview, keys, CallPlan) {
	readOnly := prep != nil && prep.ReadOnly()
	pv, k := v.describe(name, args, prep, readOnly)
	p := CallPlan{Tool: name, ReadOnly: readOnly, keys: v.standingKeys(k, pv), planned: true}
	if prep != nil {
		p.Reads, p.Writes, p.Runs = prep.Reads, prep.Paths, prep.Runs()
	}
	return pv, k, p
}

// Check is what the gate decides for call args of tool name, planned as
// prep (tools.PlanCall), by the standing rules and mode ("": the rules
// only), without a session's rules: `gatehouse policy check` and the
// Policy page's "test a path" ask it, so they answer what a turn would do.
func Check(rules []StandingRule, b Boundary, name string, args json.RawMessage, prep *tools.Prepared, mode Mode) Decided {
	_, _, p := view{b}.planCall(name, args, prep)
	return Decide(p, []Layer{{Kind: LayerRules, Source: SourceStanding, Rules: rules}}, mode)
}

// layers are the gate's layers for one call: the standing rules, then the
// session's rules.
func (g *Gate) layers(all []StandingRule) []Layer {
	return []Layer{
		{Kind: LayerRules, Source: SourceStanding, Rules: all},
		{Kind: LayerRules, Source: SourceSession, Rules: sessionRules(g.rules.List(), view{g.c.Workspace}.relCwd)},
	}
}

// sessionUsed splits the rules that decided into the session rules (as
// the session keeps them) and the standing refs.
func (g *Gate) sessionUsed(used []StandingRule) ([]protocol.Rule, []protocol.StandingRef) {
	var rules []protocol.Rule
	var refs []protocol.StandingRef
	list := g.rules.List()
	for _, r := range used {
		if r.Layer != LayerSession {
			refs = append(refs, r.Ref())
			continue
		}
		for _, s := range list {
			if s.ID == r.ID {
				rules = append(rules, s)
			}
		}
	}
	return rules, refs
}
