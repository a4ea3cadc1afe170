package budget

import (
	"context"
	"time"

	"gatehouse/internal/tools"
)

// window is the span of the calls-per-minute limit.
const window = time.Minute

// Throttle waits until the session may start one more tool call under its
// calls-per-minute limit, and counts the call. It returns how long it
// waited, and ctx's error when cancelled while waiting.
func (m *Meter) Throttle(ctx context.Context) (time.Duration, error) {
	var waited time.Duration
	for {
		n := m.Limits().CallsPerMinute
		now := m.o.Now()
		m.mu.Lock()
		keep := m.calls[:0]
		for _, t := range m.calls {
			if now.Sub(t) < window {
				keep = append(keep, t)
			}
		}
		m.calls = keep
		if n <= 0 || len(m.calls) < n {
			m.calls = append(m.calls, now)
			m.mu.Unlock()
			return waited, nil
		}
		wait := m.calls[len(m.calls)-n].Add(window).Sub(now)
		m.mu.Unlock()
		if !m.o.Sleep(wait, ctx.Done()) {
			return waited, ctx.Err()
		}
		waited += wait
	}
}

// Middleware is the calls-per-minute stage: a call past the limit waits
// for its turn (Result.Throttled says how long) rather than fail.
func (m *Meter) Middleware(_ tools.Tool, next tools.Handler) tools.Handler {
	return func(ctx context.Context, call tools.Call) (tools.Result, error) {
		waited, err := m.Throttle(ctx)
		if err != nil {
			return tools.Result{}, err
		}
		res, err := next(ctx, call)
		res.Throttled += waited
		return res, err
	}
}
