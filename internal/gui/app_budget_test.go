package gui

import (
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// The window's session stops at the session's token limit; raising the
// limit for the session lets the next turn run, and the snapshot carries
// the spend and the raised limit. Settings show the day's spend.
func TestWindowStopsAtTheLimitAndRaisesIt(t *testing.T) {
	app, _ := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "list_dir", Arguments: llmtest.Text(`{"path":"."}`)}},
			Usage: &llmtest.Usage{PromptTokens: 100, CompletionTokens: 10}},
		{Text: llmtest.Text("went on"), Usage: &llmtest.Usage{PromptTokens: 50, CompletionTokens: 5}},
	}})
	if _, err := app.SaveBudget(protocol.BudgetLimits{SessionTokens: -1}); err == nil {
		t.Fatal("a negative limit was saved")
	}
	if _, err := app.SaveBudget(protocol.BudgetLimits{SessionTokens: 100}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "list"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	snap := app.Snapshot()
	stop := snap.Transcript[len(snap.Transcript)-1]
	if stop.Reason != protocol.StopBudgetExhausted || stop.Budget == nil || stop.Budget.Limit != protocol.LimitSessionTokens {
		t.Fatalf("stop %+v", stop)
	}
	if snap.Budget == nil || snap.Budget.SessionTokens != 110 || snap.Budget.Exhausted == nil {
		t.Fatalf("snapshot budget %+v", snap.Budget)
	}
	st, err := app.RaiseBudget(string(protocol.LimitSessionTokens))
	if err != nil || st.Limits.SessionTokens != 210 || st.Exhausted != nil {
		t.Fatalf("raised: %+v %v", st, err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "continue"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	snap = app.Snapshot()
	if last := snap.Transcript[len(snap.Transcript)-1]; last.Reason != protocol.StopCompleted {
		t.Fatalf("after raising: %+v", last)
	}
	if v := app.GetBudget(); v.DayTokens != 165 || v.Limits.SessionTokens != 100 {
		t.Fatalf("settings' budget %+v", v)
	}
}
