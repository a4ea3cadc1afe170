package gui

import (
	"fmt"

	"gatehouse/internal/protocol"
	"gatehouse/internal/settings"
)

// BudgetView is the Budgets section of Settings: the saved limits and what
// the user spent today, every process included.
type BudgetView struct {
	Limits    protocol.BudgetLimits `json:"limits"`
	DayTokens int64                 `json:"dayTokens"`
	DayCost   float64               `json:"dayCost"`
}

// GetBudget returns the saved limits and the day's spend so far.
func (a *App) GetBudget() BudgetView {
	v := BudgetView{Limits: a.effective().Settings.Budget}
	if l := a.kit.Ledger(); l != nil {
		var err error
		if v.DayTokens, v.DayCost, err = l.Today(); err != nil {
			a.log.Warn("budget", "err", err)
		}
	}
	return v
}

// SaveBudget saves the limits; a negative one is refused and nothing is
// saved. Running sessions hold to them from their next model request.
func (a *App) SaveBudget(l protocol.BudgetLimits) (BudgetView, error) {
	if err := settings.ValidateBudget(l); err != nil {
		return a.GetBudget(), err
	}
	s, err := a.store.Load()
	if err != nil {
		s = settings.Defaults()
	}
	s.Budget = l
	if err := a.store.Save(s); err != nil {
		return a.GetBudget(), fmt.Errorf("could not save settings: %w", err)
	}
	return a.GetBudget(), nil
}

// RaiseBudget raises limit (a protocol.BudgetLimit) for the open session
// only, by its configured amount above what is used: the banner of a turn
// the limit stopped offers it before the user continues.
func (a *App) RaiseBudget(limit string) (protocol.BudgetState, error) {
	s := a.currentSession()
	if s == nil {
		return protocol.BudgetState{}, errNoSession
	}
	m := s.Budget()
	if m == nil {
		return protocol.BudgetState{}, fmt.Errorf("this session has no budget")
	}
	return m.Raise(protocol.BudgetLimit(limit))
}
