package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// inputOf is a recorded Responses request's input, one word per item:
// "user", "assistant", "reasoning:<encrypted>", "call:<id>", "result:<id>".
func inputOf(t *testing.T, rec llmtest.Recorded) string {
	t.Helper()
	var body struct {
		Input []struct {
			Type             string `json:"type"`
			Role             string `json:"role"`
			CallID           string `json:"call_id"`
			EncryptedContent string `json:"encrypted_content"`
		} `json:"input"`
	}
	if err := json.Unmarshal(rec.Body, &body); err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, in := range body.Input {
		switch in.Type {
		case "reasoning":
			words = append(words, "reasoning:"+in.EncryptedContent)
		case "function_call":
			words = append(words, "call:"+in.CallID)
		case "function_call_output":
			words = append(words, "result:"+in.CallID)
		default:
			words = append(words, in.Role)
		}
	}
	return strings.Join(words, ",")
}

// Over a two-step tool turn on the Responses API, each step's reasoning
// goes back with every later request, before the text and calls it led
// to: the loop keeps the assistant message whole without knowing what the
// reasoning holds.
func TestReasoningSurvivesTheToolLoop(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Reasoning: []llmtest.Reasoning{{Encrypted: "enc-1"}}, ToolCalls: []llmtest.ToolCall{call("c1", "echo", `{"text":"a"}`)}},
		{Reasoning: []llmtest.Reasoning{{Encrypted: "enc-2a"}, {Encrypted: "enc-2b", Summary: "then both"}},
			Text: llmtest.Text("Next."), ToolCalls: []llmtest.ToolCall{call("c2", "echo", `{"text":"b"}`), call("c3", "echo", `{"text":"c"}`)}},
		{Text: llmtest.Text("done")},
	}})
	a := newAgentOver(t, llm.APIResponses, srv, testTools(t, tools.Policy{}), &recorder{})
	if out := a.Run(context.Background(), "t1", "go"); out.Reason != protocol.StopCompleted {
		t.Fatalf("outcome %+v", out)
	}
	reqs := srv.ModelRequests()
	for i, want := range []string{
		"user",
		"user,reasoning:enc-1,call:c1,result:c1",
		"user,reasoning:enc-1,call:c1,result:c1,reasoning:enc-2a,reasoning:enc-2b,assistant,call:c2,call:c3,result:c2,result:c3",
	} {
		if got := inputOf(t, reqs[i]); got != want {
			t.Errorf("request %d input\n got %s\nwant %s", i, got, want)
		}
	}
}

// Trimming old tool outputs to fit the window leaves the assistant
// messages' reasoning as it was.
func TestFitKeepsReasoning(t *testing.T) {
	a := New(Config{ContextWindow: 1000})
	rs := []json.RawMessage{json.RawMessage(`{"type":"reasoning","id":"rs_1","summary":[],"encrypted_content":"enc"}`)}
	first := llm.Assistant("", llm.ToolCall{ID: "a", Name: "echo", Arguments: "{}"})
	first.Reasoning = rs
	big := strings.Repeat("x", 2400)
	a.SetHistory([]llm.Message{
		llm.User("u1"), first, llm.ToolResult("a", big),
		llm.Assistant("", llm.ToolCall{ID: "b", Name: "echo", Arguments: "{}"}), llm.ToolResult("b", big),
	})
	msgs, trimmed, _ := a.fit(nil)
	if trimmed != 1 || len(msgs[1].Reasoning) != 1 || string(msgs[1].Reasoning[0]) != string(rs[0]) {
		t.Fatalf("trimmed %d, reasoning %s", trimmed, msgs[1].Reasoning)
	}
}
