package budget

import (
	"context"
	"testing"
	"time"

	"gatehouse/internal/protocol"
	"gatehouse/internal/settings"
)

func fixedPrices(p map[string]settings.Price) Prices {
	return func(model string) (settings.Price, string) {
		if v, ok := p[model]; ok {
			return v, settings.PriceSaved
		}
		return settings.Price{}, settings.PriceUnknown
	}
}

func TestPricesFromSettings(t *testing.T) {
	s := settings.Settings{BaseURL: "https://api.openai.com/v1", Model: "gpt-4o",
		Prices: map[string]settings.Price{"mine": {InputPerMTok: 2, OutputPerMTok: 4}}}
	p := FromSettings(func() settings.Settings { return s })
	u := protocol.Usage{PromptTokens: 1_000_000, CompletionTokens: 500_000}
	for _, c := range []struct {
		model  string
		usd    float64
		priced bool
	}{{"mine", 4, true}, {"gpt-4o-mini", 0.45, true}, {"unknown-model", 0, false}} {
		if usd, ok := p.Cost(c.model, u); ok != c.priced || usd != c.usd {
			t.Errorf("Cost(%s) = %v, %v; want %v, %v", c.model, usd, ok, c.usd, c.priced)
		}
	}
	s.BaseURL = "http://127.0.0.1:11434/v1"
	if usd, ok := p.Cost("llama", u); !ok || usd != 0 {
		t.Errorf("a local server's model costs %v (priced %v), want free", usd, ok)
	}
}

func TestMeterWarnsAt80AndStopsAt100(t *testing.T) {
	var seen []protocol.BudgetState
	m := NewMeter(Options{Limits: func() protocol.BudgetLimits { return protocol.BudgetLimits{SessionTokens: 1000, SessionCost: 1} },
		Prices:   fixedPrices(map[string]settings.Price{"m": {InputPerMTok: 100, OutputPerMTok: 100}}),
		OnChange: func(s protocol.BudgetState) { seen = append(seen, s) }})
	m.Spend("m", protocol.Usage{PromptTokens: 700})
	if st := m.State(); len(st.Warnings) != 0 || st.Exhausted != nil {
		t.Fatalf("at 70%%: %+v", st)
	}
	m.Spend("m", protocol.Usage{CompletionTokens: 100}) // 800 tokens, $0.08
	if st := seen[len(seen)-1]; len(st.Warnings) != 1 || st.Warnings[0] != protocol.LimitSessionTokens || st.Exhausted != nil {
		t.Fatalf("at 80%%: %+v", st)
	}
	m.Spend("m", protocol.Usage{PromptTokens: 200})
	stop := m.Check()
	if stop == nil || stop.Limit != protocol.LimitSessionTokens || stop.Used != 1000 || stop.Max != 1000 {
		t.Fatalf("at 100%%: %+v", stop)
	}
	st, err := m.Raise(protocol.LimitSessionTokens)
	if err != nil || st.Limits.SessionTokens != 2000 || st.Exhausted != nil {
		t.Fatalf("raised: %+v, %v", st, err)
	}
	if _, err := m.Raise("nope"); err == nil {
		t.Fatal("raising an unknown limit: no error")
	}
}

func TestMeterCountsTokensOnlyForAModelWithNoPrice(t *testing.T) {
	m := NewMeter(Options{Limits: func() protocol.BudgetLimits { return protocol.BudgetLimits{SessionCost: 0.01} },
		Prices: fixedPrices(nil)})
	if _, priced := m.Spend("mystery", protocol.Usage{PromptTokens: 1_000_000}); priced {
		t.Fatal("a model with no price was priced")
	}
	st := m.State()
	if !st.Unpriced || st.UnpricedModel != "mystery" || st.SessionTokens != 1_000_000 || st.SessionCost != 0 || st.Exhausted != nil {
		t.Fatalf("state = %+v", st)
	}
}

func TestMeterDayLimitSharesTheLedger(t *testing.T) {
	dir := t.TempDir()
	lim := func() protocol.BudgetLimits { return protocol.BudgetLimits{DayTokens: 100} }
	a := NewMeter(Options{Session: "a", Limits: lim, Ledger: OpenLedger(dir)})
	b := NewMeter(Options{Session: "b", Limits: lim, Ledger: OpenLedger(dir)})
	a.Spend("x", protocol.Usage{PromptTokens: 60})
	if b.Check() != nil {
		t.Fatal("b stopped at 60 of 100")
	}
	b.Spend("x", protocol.Usage{PromptTokens: 40})
	if s := a.Check(); s == nil || s.Limit != protocol.LimitDayTokens {
		t.Fatalf("a after b crossed the day's limit: %+v", s)
	}
}

// TestThrottleDelaysTheSixthCallOfABurst: at 5 calls a minute, five calls
// in a burst run at once and the sixth waits until the first is a minute old.
func TestThrottleDelaysTheSixthCallOfABurst(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var slept []time.Duration
	m := NewMeter(Options{Limits: func() protocol.BudgetLimits { return protocol.BudgetLimits{CallsPerMinute: 5} },
		Now: func() time.Time { return now },
		Sleep: func(d time.Duration, _ <-chan struct{}) bool {
			slept = append(slept, d)
			now = now.Add(d)
			return true
		}})
	for i := range 5 {
		if w, err := m.Throttle(context.Background()); w != 0 || err != nil {
			t.Fatalf("call %d waited %v (%v)", i+1, w, err)
		}
		now = now.Add(time.Second)
	}
	w, err := m.Throttle(context.Background())
	if err != nil || w != 55*time.Second || len(slept) != 1 {
		t.Fatalf("sixth call waited %v (sleeps %v, %v); want 55s", w, slept, err)
	}
}

func TestThrottleStopsWaitingWhenCancelled(t *testing.T) {
	m := NewMeter(Options{Limits: func() protocol.BudgetLimits { return protocol.BudgetLimits{CallsPerMinute: 1} }})
	m.Throttle(context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	start := time.Now()
	if _, err := m.Throttle(ctx); err == nil || time.Since(start) > 10*time.Second {
		t.Fatalf("cancelled wait: %v after %v", err, time.Since(start))
	}
}
