package runtime

import (
	"context"
	"fmt"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/budget"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// TestCallsPerMinuteDelaysTheSixthCallOfABurst: at 5 calls a minute, a
// response with six calls runs five at once; the sixth waits for the
// first to be a minute old, and its card says how long it waited (not as
// run time).
func TestCallsPerMinuteDelaysTheSixthCallOfABurst(t *testing.T) {
	var calls []llmtest.ToolCall
	for i := range 6 {
		calls = append(calls, llmtest.ToolCall{ID: fmt.Sprint("c", i+1), Name: "list_dir", Arguments: llmtest.Text(`{"path":"."}`)})
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var slept []time.Duration
	h := start(t, llmtest.Script{Responses: []llmtest.Response{{ToolCalls: calls}, {Text: llmtest.Text("listed")}}},
		approval.Auto, map[string]string{"a.txt": "x"}, func(o *Options) {
			o.Budget = &budget.Options{Limits: func() protocol.BudgetLimits { return protocol.BudgetLimits{CallsPerMinute: 5} },
				Now: func() time.Time { return now },
				Sleep: func(d time.Duration, _ <-chan struct{}) bool {
					slept = append(slept, d)
					now = now.Add(d)
					return true
				}}
		})
	out, err := h.sess.Run(context.Background(), "list six times")
	if err != nil || out.Reason != protocol.StopCompleted {
		t.Fatalf("turn: %+v, %v", out, err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	var throttled []int64
	for _, e := range h.events {
		if p, ok := e.Payload.(protocol.ToolFinishedPayload); ok {
			throttled = append(throttled, p.ThrottledMs)
		}
	}
	if fmt.Sprint(throttled) != "[0 0 0 0 0 60000]" || len(slept) != 1 {
		t.Fatalf("throttled ms per call %v, sleeps %v; want only the sixth to wait 60s", throttled, slept)
	}
	snap := h.sess.Snapshot()
	for _, it := range snap.Transcript {
		if it.ID == "c6" && it.ThrottledMs != 60000 {
			t.Fatalf("the sixth call's card: %+v", it)
		}
	}
}
