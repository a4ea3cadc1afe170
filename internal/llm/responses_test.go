package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
)

// rawServer answers every request with status and body (SSE when status is
// 200), for streams the scripted server does not make.
func rawServer(t *testing.T, status int, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status == http.StatusOK {
			w.Header().Set("Content-Type", "text/event-stream")
		}
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// sse writes Responses API events.
func sse(events ...string) string {
	var b strings.Builder
	for _, e := range events {
		var typ struct{ Type string }
		json.Unmarshal([]byte(e), &typ)
		fmt.Fprintf(&b, "event: %s\ndata: %s\n\n", typ.Type, e)
	}
	return b.String()
}

func TestParseAPI(t *testing.T) {
	for in, want := range map[string]llm.API{"": llm.APIChat, "chat": llm.APIChat, "responses": llm.APIResponses} {
		if got, err := llm.ParseAPI(in); err != nil || got != want {
			t.Errorf("ParseAPI(%q) = %q, %v", in, got, err)
		}
	}
	if _, err := llm.New(llm.Config{API: "completions", BaseURL: "http://127.0.0.1:1/v1"}); llm.KindOf(err) != llm.KindBadConfig ||
		!strings.Contains(err.Error(), `"completions"`) {
		t.Fatalf("unknown API: %v", err)
	}
}

// A reply cut short by max_output_tokens reads as Chat Completions'
// "length", with what arrived and the usage.
func TestResponsesIncompleteIsLength(t *testing.T) {
	for reason, want := range map[string]string{"length": "length", "content_filter": "content_filter"} {
		srv := llmtest.Start(t, script(t, `{"responses": [{"text": ["Hel", "lo"], "finishReason": "`+reason+`",
			"usage": {"promptTokens": 5, "completionTokens": 2}}]}`))
		resp, err := clientFor(t, llm.APIResponses, srv.URL).Stream(context.Background(),
			llm.Request{Messages: []llm.Message{llm.User("hi")}}, nil)
		if err != nil || resp.FinishReason != want || resp.Message.Text != "Hello" || resp.Usage.TotalTokens != 7 {
			t.Fatalf("%s: %+v, %v", reason, resp, err)
		}
	}
}

// An error event mid-stream is typed like the chat path's, and keeps the
// text that came before it.
func TestResponsesErrorEvent(t *testing.T) {
	url := rawServer(t, http.StatusOK, sse(
		`{"type":"response.created","sequence_number":0,"response":{"id":"r","status":"in_progress","output":[]}}`,
		`{"type":"response.output_text.delta","sequence_number":1,"output_index":0,"item_id":"m","content_index":0,"delta":"par"}`,
		`{"type":"error","sequence_number":2,"code":"rate_limit_exceeded","message":"Slow down.","param":null}`))
	var text string
	resp, err := clientFor(t, llm.APIResponses, url).Stream(context.Background(),
		llm.Request{Messages: []llm.Message{llm.User("hi")}}, func(s string) { text += s })
	if llm.KindOf(err) != llm.KindRateLimited || text != "par" || resp.Message.Text != "par" {
		t.Fatalf("err %v, text %q, resp %+v", err, text, resp)
	}
}

// A server that sends only finished items (no deltas) still gives the text,
// once, to onText, and every call; the final output fills in what the
// items did not say.
func TestResponsesItemsWithoutDeltas(t *testing.T) {
	msg := `{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"Two calls.","annotations":[]}]}`
	fc1 := `{"type":"function_call","id":"f1","call_id":"call_1","name":"read_file","arguments":"{\"path\":\"a\"}","status":"completed"}`
	fc2 := `{"type":"function_call","id":"f2","call_id":"call_2","name":"list_dir","arguments":"{}","status":"completed"}`
	url := rawServer(t, http.StatusOK, sse(
		`{"type":"response.created","sequence_number":0,"response":{"id":"r","status":"in_progress","output":[]}}`,
		`{"type":"response.output_item.done","sequence_number":1,"output_index":0,"item":`+msg+`}`,
		`{"type":"response.output_item.done","sequence_number":2,"output_index":1,"item":`+fc1+`}`,
		`{"type":"response.completed","sequence_number":3,"response":{"id":"r","status":"completed","output":[`+msg+`,`+fc1+`,`+fc2+`],"usage":{"input_tokens":9,"output_tokens":4,"total_tokens":13,"input_tokens_details":{"cached_tokens":8}}}}`))
	var pieces []string
	resp, err := clientFor(t, llm.APIResponses, url).Stream(context.Background(),
		llm.Request{Messages: []llm.Message{llm.User("hi")}}, func(s string) { pieces = append(pieces, s) })
	if err != nil {
		t.Fatal(err)
	}
	if len(pieces) != 1 || pieces[0] != "Two calls." || resp.Message.Text != "Two calls." {
		t.Fatalf("pieces %q, text %q", pieces, resp.Message.Text)
	}
	calls := resp.Message.ToolCalls
	if len(calls) != 2 || calls[0].ID != "call_1" || calls[0].Arguments != `{"path":"a"}` || calls[1].Name != "list_dir" {
		t.Fatalf("calls %+v", calls)
	}
	if resp.FinishReason != "tool_calls" || resp.Usage.CachedTokens != 8 || resp.Usage.TotalTokens != 13 {
		t.Fatalf("finish %q usage %+v", resp.FinishReason, resp.Usage)
	}
}

// A stream that stops before its terminal event was cut off.
func TestResponsesStreamCutBeforeTheEnd(t *testing.T) {
	url := rawServer(t, http.StatusOK, sse(
		`{"type":"response.created","sequence_number":0,"response":{"id":"r","status":"in_progress","output":[]}}`,
		`{"type":"response.output_text.delta","sequence_number":1,"output_index":0,"item_id":"m","content_index":0,"delta":"Hel"}`))
	resp, err := clientFor(t, llm.APIResponses, url).Stream(context.Background(),
		llm.Request{Messages: []llm.Message{llm.User("hi")}}, nil)
	if llm.KindOf(err) != llm.KindUnreachable || !strings.Contains(err.Error(), "broke") || resp.Message.Text != "Hel" {
		t.Fatalf("err %v, resp %+v", err, resp)
	}
}

// A server with no /responses route (an older local server) is a setting
// to change, not an unknown model.
func TestResponsesWithoutTheAPI(t *testing.T) {
	url := rawServer(t, http.StatusNotFound, "404 page not found")
	_, err := clientFor(t, llm.APIResponses, url).Stream(context.Background(),
		llm.Request{Messages: []llm.Message{llm.User("hi")}}, nil)
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindBadConfig || e.Status != 404 || !strings.Contains(e.Message, "Chat Completions") {
		t.Fatalf("err %#v", err)
	}
}

// A 200 with no event at all is not a model API, on either path.
func TestStreamNoReply(t *testing.T) {
	bothAPIs(t, func(t *testing.T, api llm.API) {
		_, err := clientFor(t, api, rawServer(t, http.StatusOK, "")).Stream(context.Background(),
			llm.Request{Messages: []llm.Message{llm.User("hi")}}, nil)
		if llm.KindOf(err) != llm.KindBadResponse || !strings.Contains(err.Error(), "no reply") {
			t.Fatalf("err %v", err)
		}
	})
}

// The request: leading system text is the instructions, a later one keeps
// its place; max_output_tokens is at least the API's minimum; nothing is
// stored.
func TestResponsesRequestShape(t *testing.T) {
	srv := llmtest.Start(t, script(t, `{"responses": [{"text": "ok"}]}`))
	_, err := clientFor(t, llm.APIResponses, srv.URL).Stream(context.Background(), llm.Request{MaxTokens: 1, Messages: []llm.Message{
		llm.System("rules"), llm.System("more rules"), llm.User("hi"), llm.Assistant(""), llm.System("a note"), llm.User("again"),
	}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var body struct {
		Instructions    string `json:"instructions"`
		MaxOutputTokens int    `json:"max_output_tokens"`
		Store           *bool  `json:"store"`
		Input           []struct{ Role, Content string }
	}
	if err := json.Unmarshal(srv.Requests()[0].Body, &body); err != nil {
		t.Fatal(err)
	}
	roles := []string{}
	for _, in := range body.Input {
		roles = append(roles, in.Role+":"+in.Content)
	}
	if body.Instructions != "rules\n\nmore rules" || body.MaxOutputTokens != 16 || body.Store == nil || *body.Store ||
		strings.Join(roles, ",") != "user:hi,system:a note,user:again" {
		t.Fatalf("body %s", srv.Requests()[0].Body)
	}
}

// The connection test asks /responses even for a listed model, since
// listing says nothing about the API.
func TestConnectionOverResponses(t *testing.T) {
	clearEnv(t)
	srv := llmtest.Start(t, script(t, `{"models": ["m1"], "responses": [{"text": "p"}]}`))
	got := llm.TestConnection(context.Background(), llm.APIResponses, srv.URL, "", "m1")
	if got.Status != llm.Reachable {
		t.Fatalf("got %+v", got)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || !strings.HasSuffix(reqs[1].Path, "/responses") {
		t.Fatalf("requests %+v", reqs)
	}
	got = llm.TestConnection(context.Background(), llm.APIResponses, rawServer(t, http.StatusNotFound, "404 page not found"), "", "m1")
	if got.Status != llm.Unreachable || got.Kind != llm.KindBadConfig || !strings.Contains(got.Message, "Responses API") {
		t.Fatalf("no /responses: %+v", got)
	}
}
