package gui

import (
	"fmt"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
)

// ApprovePlan answers a plan the model proposed in plan mode: it switches
// to mode (safe, auto or manual, remembered as SetApprovalMode does) and
// starts the turn that carries out plan, which goes back to the model with
// the approval.
func (a *App) ApprovePlan(plan string, mode string) (SubmitResult, error) {
	m, err := protocol.ParseApprovalMode(mode)
	if err != nil {
		return SubmitResult{}, err
	}
	if m == approval.Plan {
		return SubmitResult{}, fmt.Errorf("approve the plan into safe, auto or manual, not plan")
	}
	if _, err := a.SetApprovalMode(mode); err != nil {
		return SubmitResult{}, err
	}
	return a.Submit(runtime.PlanApprovedPrompt(plan, m))
}

// RevisePlan asks the model, still in plan mode, to revise its plan as the
// note says.
func (a *App) RevisePlan(note string) (SubmitResult, error) {
	return a.Submit(runtime.PlanRevisePrompt(note))
}
