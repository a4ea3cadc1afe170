package settings

import (
	"fmt"
	"math"

	"gatehouse/internal/protocol"
)

// ValidateBudget refuses negative and non-finite limits (0 is no limit).
func ValidateBudget(l protocol.BudgetLimits) error {
	for _, c := range []struct {
		name string
		v    float64
	}{{"session spending limit", l.SessionCost}, {"daily spending limit", l.DayCost},
		{"session token limit", float64(l.SessionTokens)}, {"daily token limit", float64(l.DayTokens)},
		{"tool calls per minute", float64(l.CallsPerMinute)}} {
		if c.v < 0 || math.IsNaN(c.v) || math.IsInf(c.v, 0) {
			return fmt.Errorf("the %s must be a number of 0 (no limit) or more, not %v", c.name, c.v)
		}
	}
	return nil
}
