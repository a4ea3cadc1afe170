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
	"gatehouse/internal/session"
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

// A resumed session's token limit counts what its saved turns used: the
// first request after the resume crosses it and the next turn stops.
func TestResumedSessionKeepsItsSpend(t *testing.T) {
	store := session.NewStore(t.TempDir())
	limits := &budget.Options{Limits: func() protocol.BudgetLimits { return protocol.BudgetLimits{SessionTokens: 1000} }}
	var root string
	h := start(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("first"), Usage: &llmtest.Usage{PromptTokens: 700, CompletionTokens: 10}}}},
		approval.Auto, nil, func(o *Options) {
			root = o.Workspace.Root()
			log, err := store.Create(root, "s-budget")
			if err != nil {
				t.Fatal(err)
			}
			o.ID, o.Log, o.Budget = "s-budget", log, limits
		})
	if r := h.run("one"); r != protocol.StopCompleted {
		t.Fatalf("turn: %s", r)
	}
	h.sess.Close()
	log, past, err := store.Open(root, "s-budget")
	if err != nil {
		t.Fatal(err)
	}
	h2 := start(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("second"), Usage: &llmtest.Usage{PromptTokens: 300, CompletionTokens: 10}}}},
		approval.Auto, nil, func(o *Options) { o.ID, o.Log, o.Past, o.Budget = "s-budget", log, past, limits })
	if st := h2.sess.Snapshot().Budget; st == nil || st.SessionTokens != 710 {
		t.Fatalf("resumed budget %+v, want 710 tokens", st)
	}
	if r := h2.run("two"); r != protocol.StopCompleted {
		t.Fatalf("second turn: %s", r)
	}
	if r := h2.run("three"); r != protocol.StopBudgetExhausted {
		t.Fatalf("third turn: %s, want budget_exhausted at 1,020 of 1,000 tokens", r)
	}
}
