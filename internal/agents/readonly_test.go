package agents

import (
	"encoding/json"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/tools"
)

// ReadOnly means what it says, in the plan the gate decides from: a tool that starts a child is read-only only
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
	// Read-only as the gate sees it: what the call's plan says (a delegate's
	// plan stands in with its child's policy).
	readOnly := func(name, args string) bool {
		p, _, ok := tools.PlanCall(t.Context(), byName[name], json.RawMessage(args))
		return ok && p.ReadOnly()
	}
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
