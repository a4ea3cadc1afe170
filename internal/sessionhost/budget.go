package sessionhost

import (
	"gatehouse/internal/budget"
	"gatehouse/internal/protocol"
	"gatehouse/internal/settings"
)

// budget is how a session is priced and limited: at the prices and limits
// of the settings in effect when each request ends (flags replace the
// session's limits), against the user's one day ledger.
func (h *Host) budget(flags protocol.BudgetLimits) *budget.Options {
	return &budget.Options{
		Limits: func() protocol.BudgetLimits { return withFlags(h.o.Settings().Settings.Budget, flags) },
		Prices: budget.FromSettings(func() settings.Settings { return h.o.Settings().Settings }),
		Ledger: h.ledger,
	}
}

// withFlags is l with the session limits flags set replaced.
func withFlags(l, flags protocol.BudgetLimits) protocol.BudgetLimits {
	if flags.SessionCost > 0 {
		l.SessionCost = flags.SessionCost
	}
	if flags.SessionTokens > 0 {
		l.SessionTokens = flags.SessionTokens
	}
	if flags.CallsPerMinute > 0 {
		l.CallsPerMinute = flags.CallsPerMinute
	}
	return l
}

// Ledger is the user's day ledger the sessions spend against (nil: the
// data folder is not used).
func (h *Host) Ledger() *budget.Ledger { return h.ledger }
