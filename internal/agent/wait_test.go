package agent

import (
	"context"
	"testing"
	"time"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// tool.finished reports the run time without the time the call waited for
// approval, the wait apart, and how the call was approved.
func TestToolFinishedSeparatesTheWaitFromTheRun(t *testing.T) {
	overBothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{call("c1", "echo", `{"text":"a"}`)}},
			{Text: llmtest.Text("done")},
		}})
		// A gate stand-in that says the call waited an hour for the user:
		// the call itself took far less, so its run time is 0 once the
		// wait is taken off, whatever the machine's speed.
		waited := func(_ tools.Tool, next tools.Handler) tools.Handler {
			return func(ctx context.Context, c tools.Call) (tools.Result, error) {
				res, err := next(ctx, c)
				res.Waited = time.Hour
				res.Approval = &protocol.CallApproval{By: "rule", Rules: []protocol.Rule{{ID: "r1", Tool: "echo"}}}
				return res, err
			}
		}
		rec := &recorder{}
		a := newAgentOver(t, api, srv, testTools(t, tools.Policy{}, waited), rec)
		if out := a.Run(context.Background(), "", "go"); out.Reason != protocol.StopCompleted {
			t.Fatalf("outcome %+v", out)
		}
		p := rec.ofType(protocol.ToolFinished)[0].Payload.(protocol.ToolFinishedPayload)
		if p.WaitMs != time.Hour.Milliseconds() || p.DurationMs != 0 {
			t.Errorf("wait %d ms, run %d ms", p.WaitMs, p.DurationMs)
		}
		if p.Approval == nil || p.Approval.By != "rule" || p.Approval.Rules[0].ID != "r1" {
			t.Errorf("approval %+v", p.Approval)
		}
	})
}
