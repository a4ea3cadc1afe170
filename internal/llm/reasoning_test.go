package llm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
)

// requestBody is the part of a recorded Responses request these tests read.
type requestBody struct {
	Include []string `json:"include"`
	Input   []struct {
		Type             string `json:"type"`
		Role             string `json:"role"`
		CallID           string `json:"call_id"`
		EncryptedContent string `json:"encrypted_content"`
	} `json:"input"`
}

// shapeOf reads a recorded Responses request: its include, and its input
// as one word per item ("user", "assistant", "reasoning:<encrypted>",
// "function_call:<id>", "function_call_output:<id>").
func shapeOf(t *testing.T, rec llmtest.Recorded) (include []string, shape string) {
	t.Helper()
	var body requestBody
	if err := json.Unmarshal(rec.Body, &body); err != nil {
		t.Fatalf("request body %s: %v", rec.Body, err)
	}
	var words []string
	for _, in := range body.Input {
		switch in.Type {
		case "reasoning":
			words = append(words, "reasoning:"+in.EncryptedContent)
		case "function_call", "function_call_output":
			words = append(words, in.Type+":"+in.CallID)
		default:
			words = append(words, in.Role)
		}
	}
	return body.Include, strings.Join(words, ",")
}

// A reasoning model's reasoning items come back, encrypted, on the
// assistant message, and go out again with the next request, in order,
// before that message's text and function calls. The fake server checks
// that each carries the encrypted_content it was sent with.
func TestResponsesReasoningGoesBack(t *testing.T) {
	srv := llmtest.Start(t, script(t, `{"responses": [
		{"reasoning": [{"encrypted": "enc-A", "summary": "Look first."}, {"encrypted": "enc-B"}],
		 "text": "Looking.", "toolCalls": [
			{"id": "call_1", "name": "read_file", "arguments": "{}"},
			{"id": "call_2", "name": "list_dir", "arguments": "{}"}]},
		{"text": "Done."}]}`))
	c := clientFor(t, llm.APIResponses, srv.URL)
	msgs := []llm.Message{llm.System("rules"), llm.User("hi")}
	resp, err := c.Stream(context.Background(), llm.Request{Messages: msgs}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := resp.Message.Reasoning
	if len(r) != 2 || !strings.Contains(string(r[0]), `"enc-A"`) || !strings.Contains(string(r[0]), "Look first.") ||
		!strings.Contains(string(r[1]), `"enc-B"`) {
		t.Fatalf("reasoning %s", r)
	}
	msgs = append(msgs, resp.Message, llm.ToolResult("call_1", "a"), llm.ToolResult("call_2", "b"))
	if _, err := c.Stream(context.Background(), llm.Request{Messages: msgs}, nil); err != nil {
		t.Fatal(err)
	}
	reqs := srv.Requests()
	for i, want := range []string{
		"user",
		"user,reasoning:enc-A,reasoning:enc-B,assistant,function_call:call_1,function_call:call_2," +
			"function_call_output:call_1,function_call_output:call_2",
	} {
		include, shape := shapeOf(t, reqs[i])
		if shape != want || !slices.Equal(include, []string{"reasoning.encrypted_content"}) {
			t.Errorf("request %d: include %q, input %s; want %s", i, include, shape, want)
		}
	}
}

// Reasoning items never go out without the output they led to: an
// assistant message with neither text nor calls (a reply cut off while
// reasoning) sends nothing, which OpenAI would otherwise refuse.
func TestResponsesReasoningNeedsItsOutput(t *testing.T) {
	srv := llmtest.Start(t, script(t, `{"responses": [{"text": "ok"}]}`))
	lone := llm.Message{Role: llm.RoleAssistant, Reasoning: []json.RawMessage{
		json.RawMessage(`{"type":"reasoning","id":"rs_x","summary":[],"encrypted_content":"enc-X"}`)}}
	_, err := clientFor(t, llm.APIResponses, srv.URL).Stream(context.Background(),
		llm.Request{Messages: []llm.Message{llm.User("hi"), lone, llm.User("again")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, shape := shapeOf(t, srv.Requests()[0]); shape != "user,user" {
		t.Fatalf("input %s", shape)
	}
}

// A server that refuses include with a 400 gets the same call again
// without it, once, and no later request asks again. A failure of the
// retried request reads as one attempt.
func TestResponsesIncludeFallback(t *testing.T) {
	srv := llmtest.Start(t, script(t, `{"refuseInclude": true, "responses": [
		{"reasoning": [{"encrypted": "enc-A"}], "toolCalls": [{"id": "call_1", "name": "read_file", "arguments": "{}"}]},
		{"text": "Done."},
		{"error": {"status": 400, "message": "Nope."}}]}`))
	c := clientFor(t, llm.APIResponses, srv.URL)
	msgs := []llm.Message{llm.User("hi")}
	resp, err := c.Stream(context.Background(), llm.Request{Messages: msgs}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Message.ToolCalls) != 1 || resp.Message.Reasoning != nil {
		t.Fatalf("message %+v", resp.Message)
	}
	msgs = append(msgs, resp.Message, llm.ToolResult("call_1", "a"))
	if _, err := c.Stream(context.Background(), llm.Request{Messages: msgs}, nil); err != nil {
		t.Fatal(err)
	}
	_, err = c.Stream(context.Background(), llm.Request{Messages: msgs}, nil)
	if llm.KindOf(err) != llm.KindBadRequest || strings.Contains(err.Error(), "tried") {
		t.Fatalf("err %v", err)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 || reqs[0].Response != -1 {
		t.Fatalf("requests %+v", reqs)
	}
	for i, rec := range reqs {
		include, shape := shapeOf(t, rec)
		if (i == 0) != (len(include) > 0) || strings.Contains(shape, "reasoning") {
			t.Errorf("request %d: include %q, input %s", i, include, shape)
		}
	}
}

// The fallback is remembered per model: another model on the same server
// is asked for the reasoning again.
func TestResponsesIncludeFallbackPerModel(t *testing.T) {
	srv := llmtest.Start(t, script(t, `{"refuseInclude": true, "responses": [{"text": "a"}, {"text": "b"}, {"text": "c"}]}`))
	c := clientFor(t, llm.APIResponses, srv.URL)
	for _, model := range []string{"model-a", "model-a", "model-b"} {
		if _, err := c.Stream(context.Background(), llm.Request{Model: model, Messages: []llm.Message{llm.User("hi")}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	var asked []string
	for _, rec := range srv.Requests() {
		include, _ := shapeOf(t, rec)
		var body struct{ Model string }
		json.Unmarshal(rec.Body, &body)
		asked = append(asked, fmt.Sprintf("%s:%v", body.Model, len(include) > 0))
	}
	want := "model-a:true model-a:false model-a:false model-b:true model-b:false"
	if got := strings.Join(asked, " "); got != want {
		t.Fatalf("requests %s\nwant     %s", got, want)
	}
}

// Reasoning made by one model is not sent to another: it is encrypted for
// the model that made it.
func TestResponsesReasoningStaysWithItsModel(t *testing.T) {
	srv := llmtest.Start(t, script(t, `{"responses": [{"reasoning": [{"encrypted": "enc-A"}], "text": "hi"}, {"text": "x"}, {"text": "y"}]}`))
	c := clientFor(t, llm.APIResponses, srv.URL)
	resp, err := c.Stream(context.Background(), llm.Request{Model: "model-a", Messages: []llm.Message{llm.User("hi")}}, nil)
	if err != nil || resp.Message.ReasoningModel != "model-a" {
		t.Fatalf("message %+v, %v", resp.Message, err)
	}
	msgs := []llm.Message{llm.User("hi"), resp.Message, llm.User("more")}
	for _, model := range []string{"model-a", "model-b"} {
		if _, err := c.Stream(context.Background(), llm.Request{Model: model, Messages: msgs}, nil); err != nil {
			t.Fatal(err)
		}
	}
	reqs := srv.Requests()
	if _, shape := shapeOf(t, reqs[1]); shape != "user,reasoning:enc-A,assistant,user" {
		t.Errorf("same model: %s", shape)
	}
	if _, shape := shapeOf(t, reqs[2]); shape != "user,assistant,user" {
		t.Errorf("another model: %s", shape)
	}
}

// Only a 400 about include or the encrypted reasoning switches include
// off; any other error is the call's, surfaced as it is and not retried.
func TestResponsesIncludeRefusalIsSpecific(t *testing.T) {
	for _, tc := range []struct {
		err      string
		fallback bool
	}{
		{`{"status": 400, "param": "include", "message": "Encrypted content is not supported with this model."}`, true},
		{`{"status": 400, "message": "[{'type': 'extra_forbidden', 'loc': ('body', 'include'), 'msg': 'Extra inputs are not permitted'}]"}`, true},
		{`{"status": 400, "message": "reasoning.encrypted_content is not supported"}`, true},
		{`{"status": 400, "message": "Unsupported value: 'reasoning.effort' does not support 'max'."}`, false},
		{`{"status": 400, "message": "The input must include a user message."}`, false},
		{`{"status": 422, "param": "include", "message": "Encrypted content is not supported with this model."}`, false},
	} {
		srv := llmtest.StartUnchecked(script(t, `{"responses": [{"error": `+tc.err+`}, {"text": "ok"}]}`))
		c := clientFor(t, llm.APIResponses, srv.URL)
		_, err := c.Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("hi")}}, nil)
		srv.Close()
		if got := err == nil && srv.Remaining() == 0; got != tc.fallback {
			t.Errorf("%s: err %v, %d requests", tc.err, err, len(srv.Requests()))
		}
	}
}

// A server that sends no reasoning (or reasoning without encrypted_content,
// which names state a stateless call does not have) leaves the message and
// the next request as they were.
func TestResponsesWithoutReasoning(t *testing.T) {
	srv := llmtest.Start(t, script(t, `{"responses": [
		{"toolCalls": [{"id": "call_1", "name": "read_file", "arguments": "{}"}]}, {"text": "Done."}]}`))
	c := clientFor(t, llm.APIResponses, srv.URL)
	msgs := []llm.Message{llm.User("hi")}
	resp, err := c.Stream(context.Background(), llm.Request{Messages: msgs}, nil)
	if err != nil || resp.Message.Reasoning != nil {
		t.Fatalf("message %+v, %v", resp.Message, err)
	}
	msgs = append(msgs, resp.Message, llm.ToolResult("call_1", "a"))
	if _, err := c.Stream(context.Background(), llm.Request{Messages: msgs}, nil); err != nil {
		t.Fatal(err)
	}
	if _, shape := shapeOf(t, srv.Requests()[1]); shape != "user,function_call:call_1,function_call_output:call_1" {
		t.Fatalf("input %s", shape)
	}

	rs := `{"type":"reasoning","id":"rs_1","summary":[]}`
	msg := `{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Hi.","annotations":[]}]}`
	url := rawServer(t, http.StatusOK, sse(
		`{"type":"response.created","sequence_number":0,"response":{"id":"r","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.done","sequence_number":1,"output_index":0,"item":`+rs+`}`,
		`{"type":"response.completed","sequence_number":2,"response":{"id":"r","status":"completed","output":[`+rs+`,`+msg+`]}}`))
	resp, err = clientFor(t, llm.APIResponses, url).Stream(context.Background(),
		llm.Request{Messages: []llm.Message{llm.User("hi")}}, nil)
	if err != nil || resp.Message.Text != "Hi." || resp.Message.Reasoning != nil {
		t.Fatalf("message %+v, %v", resp.Message, err)
	}
}

// The chat path neither asks for reasoning nor sends a message's reasoning
// items, and scripted reasoning does not reach it.
func TestChatNeverSendsReasoning(t *testing.T) {
	srv := llmtest.Start(t, script(t, `{"responses": [{"reasoning": [{"encrypted": "enc-A"}], "text": "ok"}]}`))
	prior := llm.Assistant("Looked.", llm.ToolCall{ID: "call_1", Name: "read_file", Arguments: "{}"})
	prior.Reasoning = []json.RawMessage{json.RawMessage(`{"type":"reasoning","id":"rs_x","summary":[],"encrypted_content":"enc-X"}`)}
	resp, err := clientFor(t, llm.APIChat, srv.URL).Stream(context.Background(), llm.Request{Messages: []llm.Message{
		llm.User("hi"), prior, llm.ToolResult("call_1", "a")}}, nil)
	if err != nil || resp.Message.Reasoning != nil {
		t.Fatalf("message %+v, %v", resp.Message, err)
	}
	body := string(srv.Requests()[0].Body)
	if strings.Contains(body, "enc-X") || strings.Contains(body, "reasoning") || strings.Contains(body, `"include"`) {
		t.Fatalf("chat request %s", body)
	}
}
