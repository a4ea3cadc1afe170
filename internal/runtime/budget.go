package runtime

import (
	"gatehouse/internal/budget"
	"gatehouse/internal/protocol"
)

// openBudget makes the session's meter from o.Budget, publishing each
// change as budget.updated; a child takes its parent's, so a subagent's
// requests count against the session and the day.
func (s *Session) openBudget(o Options) {
	if s.parent != nil {
		s.meter = s.parent.meter
		return
	}
	if o.Budget == nil {
		return
	}
	bo := *o.Budget
	bo.Session = s.id
	onChange := bo.OnChange
	bo.OnChange = func(st protocol.BudgetState) {
		s.pub.Publish(protocol.Event{SessionID: s.id, TurnID: s.agentTurn(), Type: protocol.BudgetUpdated, Payload: st})
		if onChange != nil {
			onChange(st)
		}
	}
	if bo.OnError == nil {
		bo.OnError = func(err error) { s.logger.Warn("the day's spending could not be kept", "err", err) }
	}
	s.meter = budget.NewMeter(bo)
	// A resumed session goes on from what its saved turns spent.
	var tokens int64
	var usd float64
	for _, it := range s.state.Snapshot().Transcript {
		if it.Kind == protocol.ItemStop && it.Usage != nil {
			tokens += budget.Tokens(*it.Usage)
			if it.Cost != nil {
				usd += *it.Cost
			}
		}
	}
	s.meter.Seed(tokens, usd)
}

// agentTurn is the main session's running turn ("" before the agent is
// made or between turns).
func (s *Session) agentTurn() string {
	if s.agent == nil {
		return ""
	}
	return s.agent.TurnID()
}

// Budget is the session's meter, its parent's for a child (nil: not
// metered): the window raises a limit through it.
func (s *Session) Budget() *budget.Meter { return s.meter }
