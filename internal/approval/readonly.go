package approval

import (
	"encoding/json"

	"gatehouse/internal/tools"
)

// LayerBuiltin is the layer of the standing rules shipped with the app:
// the read-only set, which says what safe and plan mode run without asking
// (policy's builtin.toml). Its allow rules hold in those modes only, as the
// mode's own decision; they are never what a user's rule is, so a user's
// deny or ask beats them and manual mode still asks.
const LayerBuiltin = "builtin"

// ReadsOnly reports whether call args of t only reads, as safe and plan
// mode see it. The built-in rules among standing speak for the tools they
// name (a whole tool, or one action of it: bash's status, logs, list); a
// tool they do not name speaks for itself (tools.ReadOnlyCall: an MCP
// server's read-only hint once trusted, a subagent that can only read).
// Without built-in rules (a gate with no standing policy) every tool
// speaks for itself.
func ReadsOnly(standing []StandingRule, t tools.Tool, args json.RawMessage) bool {
	name := t.Spec().Name
	named := false
	for _, r := range standing {
		if r.Layer != LayerBuiltin || r.Decision != VerdictAllow || r.Tool != name {
			continue
		}
		named = true
		if r.coversAction(args) {
			return true
		}
	}
	if named {
		return false
	}
	return tools.ReadOnlyCall(t, args)
}

// coversAction: a built-in rule covers its whole tool, or the calls of its
// action ({"action": …} in the arguments); an undecodable call is covered
// by no action.
func (r StandingRule) coversAction(args json.RawMessage) bool {
	if len(r.Commands) > 0 || len(r.Files) > 0 {
		return false
	}
	if r.Action == "" {
		return true
	}
	var a struct {
		Action string `json:"action"`
	}
	return json.Unmarshal(args, &a) == nil && a.Action == r.Action
}

// own is standing without the built-in layer: the rules a person wrote,
// which name tools and decide calls (the built-in ones are the mode's).
func own(standing []StandingRule) []StandingRule {
	out := standing[:0:0]
	for _, r := range standing {
		if r.Layer != LayerBuiltin {
			out = append(out, r)
		}
	}
	return out
}
