package agent

import (
	"context"
	"strings"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

func stopOf(t *testing.T, rec *recorder) protocol.TurnStoppedPayload {
	t.Helper()
	stops := rec.ofType(protocol.TurnStopped)
	if len(stops) != 1 {
		t.Fatalf("%d turn.stopped events", len(stops))
	}
	return stops[0].Payload.(protocol.TurnStoppedPayload)
}

// turn.stopped says how full the window was at the last request, as the
// server counted it.
func TestTurnStoppedCarriesTheContextUse(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{call("c1", "echo", `{"text":"a"}`)}, Usage: &llmtest.Usage{PromptTokens: 900, CompletionTokens: 5}},
		{Text: llmtest.Text("done"), Usage: &llmtest.Usage{PromptTokens: 1200, CompletionTokens: 1}},
	}})
	rec := &recorder{}
	out := newAgent(t, srv, testTools(t, tools.Policy{}), rec).Run(context.Background(), "", "go")
	if out.Reason != protocol.StopCompleted {
		t.Fatalf("outcome %+v", out)
	}
	got := stopOf(t, rec).Context
	want := protocol.ContextUse{Tokens: 1200, Window: 128_000, WindowSource: "default"}
	if got == nil || *got != want {
		t.Fatalf("context %+v, want %+v", got, want)
	}
}

// Old tool outputs trimmed to fit the window are counted in turn.stopped,
// so the UI can tell the user; the model's request carries the trimmed
// marker instead of the output.
func TestTurnStoppedCountsTrimmedOutputs(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("ok")}}})
	client, err := llm.New(llm.Config{BaseURL: srv.URL, APIKey: "sk-test", Model: "fake-model"})
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	a := New(Config{Model: client, Events: rec, SessionID: "s1", ContextWindow: 1000})
	big := strings.Repeat("x", 4000)
	a.SetHistory([]llm.Message{
		llm.User("u1"),
		llm.Assistant("", llm.ToolCall{ID: "a", Name: "echo", Arguments: "{}"}),
		llm.ToolResult("a", big),
		llm.Assistant("done"),
	})
	if out := a.Run(context.Background(), "", "again"); out.Reason != protocol.StopCompleted || out.Trimmed != 1 {
		t.Fatalf("outcome %+v", out)
	}
	c := stopOf(t, rec).Context
	if c == nil || c.Trimmed != 1 || c.Window != 1000 || c.Tokens <= 0 {
		t.Fatalf("context %+v", c)
	}
	if body := string(srv.ModelRequests()[0].Body); strings.Contains(body, big) || !strings.Contains(body, "cleared to save context") {
		t.Errorf("the request still carries the old output")
	}
}

// A server that sends no usage: the gauge gets Gatehouse's estimate, marked.
func TestContextUseFallsBackToTheEstimate(t *testing.T) {
	a := New(Config{})
	out := Outcome{ContextTokens: 300, ContextEstimated: true}
	if c := a.contextUse(out); c == nil || !c.Estimated || c.Tokens != 300 || c.Window != 128_000 {
		t.Fatalf("context %+v", c)
	}
	if a.contextUse(Outcome{}) != nil {
		t.Fatal("a turn without a request has no context use")
	}
}
