package runtime

import (
	"fmt"
	"strings"

	"gatehouse/internal/approval"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/steer"
	"gatehouse/internal/tools/web"
)

// modePolicy is what the approval mode allows now, on top of the session's
// policy (the router reads it on every request and call): plan mode offers
// only the tools that read, so a writing tool, a command or a subagent that
// can write is neither shown nor run (web_fetch is offered, and asks as in
// safe); propose_plan is offered in plan mode only, and never to a child (a
// plan is the main session's to propose).
func (s *Session) modePolicy() tools.Policy {
	planRead := map[string]bool{web.Name: true}
	if s.mode() == approval.Plan && s.parent == nil {
		return tools.Policy{ReadOnly: true, ReadOnlyExcept: planRead}
	}
	p := tools.Policy{Denied: map[string]bool{steer.ProposePlanName: true}}
	if s.parent != nil {
		// The checklist above the composer is the main session's.
		p.Denied[steer.TodoWriteName] = true
	}
	if s.mode() == approval.Plan {
		p.ReadOnly, p.ReadOnlyExcept = true, planRead
	}
	return p
}

// PlanApprovedPrompt is the prompt of the turn that carries out an approved
// plan in mode: the plan goes back to the model with the approval.
func PlanApprovedPrompt(plan string, mode approval.Mode) string {
	return fmt.Sprintf("I approve your plan. Carry it out now (approval mode: %s).\n\nThe approved plan:\n\n%s", mode, strings.TrimSpace(plan))
}

// PlanRevisePrompt asks the model, still in plan mode, for a revised plan.
func PlanRevisePrompt(note string) string {
	note = strings.TrimSpace(note)
	if note == "" {
		return "Revise your plan, then propose it again with propose_plan."
	}
	return "Revise your plan: " + note + "\n\nThen propose it again with propose_plan."
}
