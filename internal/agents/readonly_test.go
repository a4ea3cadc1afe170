package agents

import (
	"encoding/json"
	"slices"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/policy"
	"gatehouse/internal/tools"
)

// ReadOnly means what it says: a tool that starts a child is read-only only
// when the child can only read (so in safe mode starting general asks, as
// its own writes do); stopping a child acts, as bash stop does; reading a
// child's status or result reads.
func TestReadOnlyMeansTheChildCanOnlyRead(t *testing.T) {
	h := start(t, llmtest.Script{}, approval.Safe, setup{defs: []Definition{
		{Name: "reviewer", Description: "reviews", Tools: []string{"read_file", "grep"}, Source: "test"},
		{Name: "fixer", Description: "fixes", Tools: []string{"read_file", "apply_patch"}, Source: "test"},
	}})
	byName := map[string]tools.Tool{}
	for _, tl := range (provider{h.m}).Tools() {
		byName[tl.Spec().Name] = tl
	}
	readOnly := func(name, args string) bool { return tools.ReadOnlyCall(byName[name], json.RawMessage(args)) }
	for _, c := range []struct {
		name, args string
		want       bool
	}{
		{"delegate_explore", `{}`, true}, {"delegate_plan", `{}`, true}, {"delegate_reviewer", `{}`, true},
		{"delegate_general", `{}`, false}, {"delegate_fixer", `{}`, false},
		{ToolStart, `{"agent":"explore","task":"x"}`, true}, {ToolStart, `{"agent":"general","task":"x"}`, false},
		{ToolStart, `{"agent":"nobody","task":"x"}`, false},
		{ToolStatus, `{"id":"agent-1"}`, true}, {ToolResult, `{"id":"agent-1"}`, true}, {ToolStop, `{"id":"agent-1"}`, false},
	} {
		if got := readOnly(c.name, c.args); got != c.want {
			t.Errorf("%s %s: read-only %v, want %v", c.name, c.args, got, c.want)
		}
	}
}

// TestBuiltinPolicyAgreesOnAgentTools: the built-in layer names the
// agents' reading tools (status, result) and leaves the others to speak for
// themselves, so safe decides on each as before.
func TestBuiltinPolicyAgreesOnAgentTools(t *testing.T) {
	h := start(t, llmtest.Script{}, approval.Safe, setup{})
	builtin := policy.Builtin()
	for _, tl := range (provider{h.m}).Tools() {
		for _, a := range []string{`{"agent":"explore","task":"x"}`, `{"agent":"general","task":"x"}`, `{"id":"agent-1"}`, `{}`} {
			if got, want := approval.ReadsOnly(builtin, tl, json.RawMessage(a)), tools.ReadOnlyCall(tl, json.RawMessage(a)); got != want {
				t.Errorf("%s %s: the built-in layer says read-only %v, the tool %v", tl.Spec().Name, a, got, want)
			}
		}
	}
	for _, name := range []string{ToolStatus, ToolResult} {
		if !slices.ContainsFunc(builtin, func(r approval.StandingRule) bool { return r.Tool == name }) {
			t.Errorf("the built-in layer does not name %s", name)
		}
	}
}
