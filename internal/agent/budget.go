package agent

import "gatehouse/internal/protocol"

// spend meters one request's usage at model ("": the model of the last
// request, as a compaction's summary is written by it) and adds its cost
// to the turn's.
func (a *Agent) spend(out *Outcome, model string, u protocol.Usage) {
	if a.cfg.Budget == nil || u == (protocol.Usage{}) {
		return
	}
	if model == "" {
		if p := a.model.Load(); p != nil {
			model = *p
		}
	} else {
		a.model.Store(&model)
	}
	usd, priced := a.cfg.Budget.Spend(model, u)
	if !priced {
		out.unpriced, out.Cost = true, nil
		return
	}
	if out.unpriced {
		return
	}
	sum := usd
	if out.Cost != nil {
		sum += *out.Cost
	}
	out.Cost = &sum
}

// overBudget is the limit the session reached, nil while none (or without
// a Budget).
func (a *Agent) overBudget() *protocol.BudgetStop {
	if a.cfg.Budget == nil {
		return nil
	}
	return a.cfg.Budget.Check()
}
