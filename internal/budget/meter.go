package budget

import (
	"fmt"
	"sync"
	"time"

	"gatehouse/internal/protocol"
)

// WarnAt is the share of a limit at which the header warns.
const WarnAt = 0.8

// Options are what a session's Meter needs.
type Options struct {
	// Session is the session's id, written with each ledger entry.
	Session string
	// Limits returns the limits in effect, read at every check (the
	// window's settings may change while a session runs); nil: none.
	Limits func() protocol.BudgetLimits
	// Prices prices each request at the model that answered it.
	Prices Prices
	// Ledger is the user's day ledger (nil: the day's figure is this
	// meter's own).
	Ledger *Ledger
	// OnChange hears the state after each request and each raise, outside
	// the meter's lock (the session publishes budget.updated).
	OnChange func(protocol.BudgetState)
	// OnError hears a ledger that could not be written or read.
	OnError func(error)
	// Now and Sleep are the clock of the calls-per-minute limit (nil: the
	// real ones).
	Now   func() time.Time
	Sleep func(d time.Duration, done <-chan struct{}) bool
}

// Meter counts one session's spend, its subagents' included, against its
// limits.
type Meter struct {
	o Options

	mu       sync.Mutex
	tokens   int64
	cost     float64
	unpriced string // a model with no price that ran
	// raised are limits the user raised for this session, over the
	// configured ones.
	raised protocol.BudgetLimits
	// dayTokens and dayCost count this meter's own spend when there is
	// no ledger.
	dayTokens int64
	dayCost   float64
	calls     []time.Time // starts of the calls of the last minute
}

// NewMeter returns a session's meter.
func NewMeter(o Options) *Meter {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Sleep == nil {
		o.Sleep = sleep
	}
	return &Meter{o: o}
}

func sleep(d time.Duration, done <-chan struct{}) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-done:
		return false
	}
}

// Spend records one model request's usage at model, in the session and in
// the day's ledger (synced before it returns), and returns what it cost;
// priced is false when model has no known price.
func (m *Meter) Spend(model string, u protocol.Usage) (usd float64, priced bool) {
	n := Tokens(u)
	if n == 0 {
		return 0, true
	}
	usd, priced = m.o.Prices.Cost(model, u)
	m.mu.Lock()
	m.tokens += n
	m.cost += usd
	if !priced && m.unpriced == "" {
		m.unpriced = model
		if model == "" {
			m.unpriced = "the model"
		}
	}
	m.dayTokens += n
	m.dayCost += usd
	m.mu.Unlock()
	if m.o.Ledger != nil {
		if err := m.o.Ledger.Add(Entry{Session: m.o.Session, Model: model, Tokens: n, Cost: usd}); err != nil && m.o.OnError != nil {
			m.o.OnError(err)
		}
	}
	m.changed()
	return usd, priced
}

// Seed counts what a resumed session spent before (its saved turns) in
// the session's figures; the day's ledger has it already.
func (m *Meter) Seed(tokens int64, usd float64) {
	m.mu.Lock()
	m.tokens += tokens
	m.cost += usd
	m.mu.Unlock()
}

func (m *Meter) changed() {
	if m.o.OnChange != nil {
		m.o.OnChange(m.State())
	}
}

// Limits are the limits in effect for the session: the configured ones,
// or the raised ones where the user raised them.
func (m *Meter) Limits() protocol.BudgetLimits {
	var l protocol.BudgetLimits
	if m.o.Limits != nil {
		l = m.o.Limits()
	}
	m.mu.Lock()
	r := m.raised
	m.mu.Unlock()
	l.SessionCost = raise(l.SessionCost, r.SessionCost)
	l.DayCost = raise(l.DayCost, r.DayCost)
	l.SessionTokens = int64(raise(float64(l.SessionTokens), float64(r.SessionTokens)))
	l.DayTokens = int64(raise(float64(l.DayTokens), float64(r.DayTokens)))
	return l
}

// raise is the limit in effect: a raised one above the configured one
// (a configured "none" stays none).
func raise(configured, raised float64) float64 {
	if configured > 0 && raised > configured {
		return raised
	}
	return configured
}

// State is the session's spend against its limits now.
func (m *Meter) State() protocol.BudgetState {
	l := m.Limits()
	m.mu.Lock()
	st := protocol.BudgetState{SessionTokens: m.tokens, SessionCost: m.cost, DayTokens: m.dayTokens, DayCost: m.dayCost,
		Unpriced: m.unpriced != "", UnpricedModel: m.unpriced, Limits: l}
	m.mu.Unlock()
	if m.o.Ledger != nil {
		t, c, err := m.o.Ledger.Today()
		if err != nil && m.o.OnError != nil {
			m.o.OnError(err)
		}
		st.DayTokens, st.DayCost = t, c
	}
	for _, c := range checks(st) {
		if c.max <= 0 {
			continue
		}
		if c.used >= c.max {
			if st.Exhausted == nil {
				st.Exhausted = &protocol.BudgetStop{Limit: c.limit, Used: c.used, Max: c.max, Message: Describe(c.limit, c.used, c.max)}
			}
		} else if c.used >= WarnAt*c.max {
			st.Warnings = append(st.Warnings, c.limit)
		}
	}
	return st
}

type check struct {
	limit     protocol.BudgetLimit
	used, max float64
}

// checks are the limits in the order a stop names them: the session's
// before the day's, tokens before cost.
func checks(st protocol.BudgetState) []check {
	return []check{
		{protocol.LimitSessionTokens, float64(st.SessionTokens), float64(st.Limits.SessionTokens)},
		{protocol.LimitSessionCost, st.SessionCost, st.Limits.SessionCost},
		{protocol.LimitDayTokens, float64(st.DayTokens), float64(st.Limits.DayTokens)},
		{protocol.LimitDayCost, st.DayCost, st.Limits.DayCost},
	}
}

// Check returns the limit the session has reached, nil while none: the
// next model request must not start.
func (m *Meter) Check() *protocol.BudgetStop { return m.State().Exhausted }

// Raise raises limit for this session by its configured amount above what
// is used now (the window's "raise the limit" after a stop).
func (m *Meter) Raise(limit protocol.BudgetLimit) (protocol.BudgetState, error) {
	var conf protocol.BudgetLimits
	if m.o.Limits != nil {
		conf = m.o.Limits()
	}
	st := m.State()
	m.mu.Lock()
	switch limit {
	case protocol.LimitSessionTokens:
		m.raised.SessionTokens = max(st.Limits.SessionTokens, st.SessionTokens) + conf.SessionTokens
	case protocol.LimitSessionCost:
		m.raised.SessionCost = max(st.Limits.SessionCost, st.SessionCost) + conf.SessionCost
	case protocol.LimitDayTokens:
		m.raised.DayTokens = max(st.Limits.DayTokens, st.DayTokens) + conf.DayTokens
	case protocol.LimitDayCost:
		m.raised.DayCost = max(st.Limits.DayCost, st.DayCost) + conf.DayCost
	default:
		m.mu.Unlock()
		return st, fmt.Errorf("unknown budget limit %q", limit)
	}
	m.mu.Unlock()
	m.changed()
	return m.State(), nil
}

// Describe names a limit and its use in a sentence: "the session's token
// limit (10,000 tokens) is used up: 10,240 tokens".
func Describe(l protocol.BudgetLimit, used, limit float64) string {
	switch l {
	case protocol.LimitSessionTokens:
		return fmt.Sprintf("the session's token limit (%s tokens) is reached: %s tokens used", count(limit), count(used))
	case protocol.LimitDayTokens:
		return fmt.Sprintf("the daily token limit (%s tokens) is reached: %s tokens used today", count(limit), count(used))
	case protocol.LimitSessionCost:
		return fmt.Sprintf("the session's spending limit ($%.2f) is reached: $%.4f spent", limit, used)
	case protocol.LimitDayCost:
		return fmt.Sprintf("the daily spending limit ($%.2f) is reached: $%.4f spent today", limit, used)
	}
	return string(l)
}

// Name is a limit's name in a sentence ("the session's token limit").
func Name(l protocol.BudgetLimit) string {
	switch l {
	case protocol.LimitSessionTokens:
		return "the session's token limit"
	case protocol.LimitDayTokens:
		return "the daily token limit"
	case protocol.LimitSessionCost:
		return "the session's spending limit"
	case protocol.LimitDayCost:
		return "the daily spending limit"
	}
	return string(l)
}

// count writes n with thousands separators.
func count(f float64) string {
	s := fmt.Sprintf("%d", int64(f))
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
