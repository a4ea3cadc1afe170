package protocol

// BudgetLimits are the limits on what sessions spend; 0 is no limit.
// Session limits hold for one session (its subagents' requests included);
// day limits for the sum of every session of the user that day, in every
// process (the window, exec runs, ACP sessions).
type BudgetLimits struct {
	// SessionCost and DayCost are US dollars, at each model's price.
	SessionCost float64 `json:"sessionCost,omitempty"`
	DayCost     float64 `json:"dayCost,omitempty"`
	// SessionTokens and DayTokens count input + output tokens.
	SessionTokens int64 `json:"sessionTokens,omitempty"`
	DayTokens     int64 `json:"dayTokens,omitempty"`
	// CallsPerMinute bounds the tool calls a session starts in any minute;
	// a call past it waits rather than stops.
	CallsPerMinute int `json:"callsPerMinute,omitempty"`
}

// BudgetLimit names one limit a turn can exhaust.
type BudgetLimit string

const (
	LimitSessionCost   BudgetLimit = "session_cost"
	LimitSessionTokens BudgetLimit = "session_tokens"
	LimitDayCost       BudgetLimit = "day_cost"
	LimitDayTokens     BudgetLimit = "day_tokens"
)

// EnumValues lists the values, for the TypeScript generator.
func (BudgetLimit) EnumValues() []string {
	return []string{string(LimitSessionCost), string(LimitSessionTokens), string(LimitDayCost), string(LimitDayTokens)}
}

// Valid reports whether l is one of the listed values.
func (l BudgetLimit) Valid() bool { return validEnum(l.EnumValues(), string(l)) }

// BudgetStop is the limit that stopped a turn: what was used against it.
type BudgetStop struct {
	Limit BudgetLimit `json:"limit"`
	Used  float64     `json:"used"`
	Max   float64     `json:"max"`
	// Message names the limit in a sentence a host can show.
	Message string `json:"message"`
}

// BudgetState is a session's spending against its limits, as the header
// shows it (the budget.updated payload, Snapshot.Budget).
type BudgetState struct {
	// SessionTokens and SessionCost are the session's (its subagents'
	// included); DayTokens and DayCost the user's today, every process.
	SessionTokens int64   `json:"sessionTokens"`
	SessionCost   float64 `json:"sessionCost"`
	DayTokens     int64   `json:"dayTokens"`
	DayCost       float64 `json:"dayCost"`
	// Unpriced is set when a request of the session ran on a model with no
	// known price: its tokens count, its cost does not, so a cost limit
	// cannot apply to it.
	Unpriced bool `json:"unpriced,omitempty"`
	// UnpricedModel names that model.
	UnpricedModel string `json:"unpricedModel,omitempty"`
	// Limits are the limits in effect for the session (raised ones
	// included).
	Limits BudgetLimits `json:"limits"`
	// Warnings are the limits at 80% or more of their maximum.
	Warnings []BudgetLimit `json:"warnings,omitempty"`
	// Exhausted is the limit at 100%, if any: the next request stops.
	Exhausted *BudgetStop `json:"exhausted,omitempty"`
}
