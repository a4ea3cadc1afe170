package cli

import (
	"fmt"
	"io"

	"gatehouse/internal/budget"
	"gatehouse/internal/protocol"
)

// budgetNotice says on stderr, once per limit, that a run reached 80% of
// it, and which limit stopped it.
type budgetNotice struct {
	w      io.Writer
	warned map[protocol.BudgetLimit]bool
	done   bool
}

func (b *budgetNotice) Emit(e protocol.Event) {
	if b.done {
		return
	}
	switch p := e.Payload.(type) {
	case protocol.BudgetState:
		for _, l := range p.Warnings {
			if b.warned[l] {
				continue
			}
			if b.warned == nil {
				b.warned = map[protocol.BudgetLimit]bool{}
			}
			b.warned[l] = true
			fmt.Fprintf(b.w, "gatehouse exec: budget: %s is 80%% used (%s)\n", budget.Name(l), used(p, l))
		}
	case protocol.TurnStoppedPayload:
		if e.ParentCallID != "" {
			return
		}
		b.done = true
		if p.Budget != nil {
			fmt.Fprintf(b.w, "gatehouse exec: budget: stopped: %s\n", p.Budget.Message)
		}
	}
}

// used says what was used of limit l, out of its maximum.
func used(st protocol.BudgetState, l protocol.BudgetLimit) string {
	switch l {
	case protocol.LimitSessionTokens:
		return fmt.Sprintf("%d of %d tokens", st.SessionTokens, st.Limits.SessionTokens)
	case protocol.LimitDayTokens:
		return fmt.Sprintf("%d of %d tokens today", st.DayTokens, st.Limits.DayTokens)
	case protocol.LimitSessionCost:
		return fmt.Sprintf("$%.4f of $%.2f", st.SessionCost, st.Limits.SessionCost)
	case protocol.LimitDayCost:
		return fmt.Sprintf("$%.4f of $%.2f today", st.DayCost, st.Limits.DayCost)
	}
	return ""
}
