package agents

import (
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
)

// In plan mode a subagent that can write is neither offered nor started:
// delegate_general and subagent_start of general are refused unrun, while
// a reading one (explore) is offered and runs.
func TestPlanModeRefusesADelegateThatCanWrite(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "delegate_general", `{"task":"write hello.txt"}`),
		call("c2", ToolStart, `{"agent":"general","task":"write hello.txt"}`),
		text("ok"),
	}}, approval.Plan, setup{})
	h.run("plan it")
	offered := requestTools(t, h.srv, 0)
	if slices.Contains(offered, "delegate_general") || !slices.Contains(offered, "delegate_explore") {
		t.Errorf("plan mode offered %v", offered)
	}
	if r := h.result("c1"); !strings.Contains(r, "tool_not_allowed") {
		t.Errorf("delegate_general in plan mode: %s", r)
	}
	if r := h.result("c2"); !strings.Contains(r, "tool_not_allowed") && !strings.Contains(r, "error") {
		t.Errorf("subagent_start of general in plan mode: %s", r)
	}
	if calls := h.childCalls("c1"); len(calls) > 0 {
		t.Errorf("the child ran: %v", calls)
	}
}
