package gui

import (
	"errors"
	"fmt"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/tools/steer"
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
	return a.submitText(runtime.PlanApprovedPrompt(plan, m))
}

// RevisePlan asks the model, still in plan mode, to revise its plan as the
// note says.
func (a *App) RevisePlan(note string) (SubmitResult, error) {
	return a.submitText(runtime.PlanRevisePrompt(note))
}

// AnswerQuestion answers the model's ask_user question of call callID (the
// question the chat shows under that call). The first answer wins; an
// answer that is not one of the question's choices is refused.
func (a *App) AnswerQuestion(callID, answer string) error {
	s := a.currentSession()
	if s == nil {
		return errNoSession
	}
	b, ok := s.Asker().(*steer.Broker)
	if !ok {
		return errors.New("this session takes no answers from the window")
	}
	return b.Answer(callID, answer)
}
