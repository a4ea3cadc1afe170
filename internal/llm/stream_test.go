package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
)

// clearEnv keeps the developer's OPENAI_* variables out of the tests.
func clearEnv(t *testing.T) {
	for _, k := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID",
		"OPENAI_CUSTOM_HEADERS", "OPENAI_ADMIN_KEY", "OPENAI_WEBHOOK_SECRET"} {
		t.Setenv(k, "")
	}
}

func client(t *testing.T, baseURL string) *llm.Client {
	t.Helper()
	return clientFor(t, llm.APIChat, baseURL)
}

func clientFor(t *testing.T, api llm.API, baseURL string) *llm.Client {
	t.Helper()
	clearEnv(t)
	c, err := llm.New(llm.Config{API: api, BaseURL: baseURL, APIKey: "sk-test", Model: "fake-model"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// bothAPIs runs f as a subtest per API: the same script must give the same
// Response over Chat Completions and over the Responses API.
func bothAPIs(t *testing.T, f func(t *testing.T, api llm.API)) {
	for _, api := range []llm.API{llm.APIChat, llm.APIResponses} {
		t.Run(string(api), func(t *testing.T) { f(t, api) })
	}
}

func script(t *testing.T, js string) llmtest.Script {
	t.Helper()
	s, err := llmtest.ParseScript([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestStreamText(t *testing.T) {
	bothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, script(t, `{"apiKey": "sk-test", "responses": [
			{"text": "Hello **there**, friend", "usage": {"promptTokens": 12, "completionTokens": 3, "cachedTokens": 4}}]}`))
		var pieces []string
		resp, err := clientFor(t, api, srv.URL).Stream(context.Background(), llm.Request{
			Messages: []llm.Message{llm.System("be brief"), llm.User("hello")}}, func(s string) { pieces = append(pieces, s) })
		if err != nil {
			t.Fatal(err)
		}
		if len(pieces) < 3 || strings.Join(pieces, "") != "Hello **there**, friend" {
			t.Fatalf("pieces %q", pieces)
		}
		if resp.Message.Text != "Hello **there**, friend" || resp.Message.Role != llm.RoleAssistant || len(resp.Message.ToolCalls) != 0 {
			t.Fatalf("message %+v", resp.Message)
		}
		if resp.FinishReason != "stop" {
			t.Errorf("finish %q", resp.FinishReason)
		}
		if u := resp.Usage; u.PromptTokens != 12 || u.CompletionTokens != 3 || u.TotalTokens != 15 || u.CachedTokens != 4 {
			t.Errorf("usage %+v", u)
		}
		reqs := srv.Requests()
		if len(reqs) != 1 || !reqs[0].Authorized {
			t.Fatalf("requests %+v", reqs)
		}
		if api == llm.APIResponses {
			var body struct {
				Model        string `json:"model"`
				Stream       bool   `json:"stream"`
				Store        *bool  `json:"store"`
				Instructions string `json:"instructions"`
				Input        []struct{ Role, Content string }
			}
			if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(reqs[0].Path, "/v1/responses") || body.Model != "fake-model" || !body.Stream ||
				body.Store == nil || *body.Store || body.Instructions != "be brief" ||
				len(body.Input) != 1 || body.Input[0].Role != "user" || body.Input[0].Content != "hello" {
				t.Fatalf("request %s %s", reqs[0].Path, reqs[0].Body)
			}
			return
		}
		var body struct {
			Model         string `json:"model"`
			Stream        bool   `json:"stream"`
			StreamOptions struct {
				IncludeUsage bool `json:"include_usage"`
			} `json:"stream_options"`
			Messages []struct{ Role, Content string } `json:"messages"`
		}
		if err := json.Unmarshal(reqs[0].Body, &body); err != nil {
			t.Fatal(err)
		}
		if body.Model != "fake-model" || !body.Stream || !body.StreamOptions.IncludeUsage || len(body.Messages) != 2 ||
			body.Messages[0].Role != "system" || body.Messages[1].Content != "hello" {
			t.Fatalf("request body %s", reqs[0].Body)
		}
	})
}

var readFile = llm.ToolSpec{Name: "read_file", Description: "Read a file.",
	Parameters: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)}

// A call split across chunks arrives whole; the next request carries the
// call and its result, which satisfies the server's check.
func TestStreamSplitToolCallThenResult(t *testing.T) {
	bothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, script(t, `{"responses": [
			{"text": ["Let me look."], "toolCalls": [{"id": "call_1", "name": "read_file", "arguments": ["{\"pa", "th\":\"a", ".txt\"}"]}]},
			{"text": "It says hi."}]}`))
		c := clientFor(t, api, srv.URL)
		msgs := []llm.Message{llm.User("what is in a.txt?")}
		resp, err := c.Stream(context.Background(), llm.Request{Messages: msgs, Tools: []llm.ToolSpec{readFile}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := llm.ToolCall{ID: "call_1", Name: "read_file", Arguments: `{"path":"a.txt"}`}
		if len(resp.Message.ToolCalls) != 1 || resp.Message.ToolCalls[0] != want || resp.FinishReason != "tool_calls" {
			t.Fatalf("got %+v (%s)", resp.Message, resp.FinishReason)
		}
		if resp.Message.Text != "Let me look." {
			t.Errorf("text %q", resp.Message.Text)
		}
		msgs = append(msgs, resp.Message, llm.ToolResult("call_1", `{"content":"hi"}`))
		resp, err = c.Stream(context.Background(), llm.Request{Messages: msgs, Tools: []llm.ToolSpec{readFile}}, nil)
		if err != nil || resp.Message.Text != "It says hi." {
			t.Fatalf("%+v, %v", resp, err)
		}
		body := string(srv.Requests()[1].Body)
		wants := []string{`"tool_call_id":"call_1"`, `"tool_calls":[{"id":"call_1"`, `"name":"read_file"`, `"arguments":"{\"path\":\"a.txt\"}"`}
		tools := `"tools":[{"function":{"name":"read_file"`
		if api == llm.APIResponses {
			wants = []string{`{"content":"Let me look.","role":"assistant"}`,
				`{"arguments":"{\"path\":\"a.txt\"}","call_id":"call_1","name":"read_file","type":"function_call"}`,
				`{"output":"{\"content\":\"hi\"}","call_id":"call_1","type":"function_call_output"}`}
			tools = `"tools":[{"strict":false,"parameters":{"properties":{"path":{"type":"string"}},"required":["path"],"type":"object"},"name":"read_file","description":"Read a file.","type":"function"}]`
		}
		for _, want := range wants {
			if !strings.Contains(body, want) {
				t.Errorf("second request lacks %s: %s", want, body)
			}
		}
		if !strings.Contains(string(srv.Requests()[0].Body), tools) {
			t.Errorf("tools not sent: %s", srv.Requests()[0].Body)
		}
	})
}

func TestStreamParallelToolCallsInterleaved(t *testing.T) {
	bothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, script(t, `{"responses": [{"interleave": true, "toolCalls": [
			{"id": "call_a", "name": "read_file", "arguments": ["{\"path\":", "\"a\"}"]},
			{"id": "call_b", "name": "list_dir", "arguments": ["{\"path\"", ":\"", "b\"}"]}]}]}`))
		resp, err := clientFor(t, api, srv.URL).Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("go")}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := []llm.ToolCall{
			{ID: "call_a", Name: "read_file", Arguments: `{"path":"a"}`},
			{ID: "call_b", Name: "list_dir", Arguments: `{"path":"b"}`},
		}
		if len(resp.Message.ToolCalls) != 2 || resp.Message.ToolCalls[0] != want[0] || resp.Message.ToolCalls[1] != want[1] {
			t.Fatalf("got %+v", resp.Message.ToolCalls)
		}
	})
}

func TestStreamErrorsAreTyped(t *testing.T) {
	bothAPIs(t, func(t *testing.T, api llm.API) {
		cases := []struct {
			name   string
			script string
			model  string
			want   llm.ErrorKind
			status int
		}{
			{"401", `{"responses": [{"error": {"status": 401, "code": "invalid_api_key", "message": "bad key"}}]}`, "", llm.KindKeyRejected, 401},
			{"403", `{"responses": [{"error": {"status": 403, "message": "forbidden"}}]}`, "", llm.KindKeyRejected, 403},
			{"wrong key", `{"apiKey": "other", "responses": []}`, "", llm.KindKeyRejected, 401},
			{"404 model", `{"responses": [{"error": {"status": 404, "code": "model_not_found", "message": "no such model"}}]}`, "", llm.KindModelUnknown, 404},
			{"unlisted model", `{"models": ["m1"], "responses": []}`, "m2", llm.KindModelUnknown, 404},
			{"429", `{"responses": [{"error": {"status": 429, "code": "rate_limit_exceeded", "message": "slow down"}}]}`, "", llm.KindRateLimited, 429},
			{"500", `{"responses": [{"error": {"status": 500, "message": "boom"}}]}`, "", llm.KindServer, 500},
			{"overflow", `{"responses": [{"error": {"status": 400, "code": "context_length_exceeded", "message": "This model's maximum context length is 8192 tokens."}}]}`, "", llm.KindContextOverflow, 400},
			{"400", `{"responses": [{"error": {"status": 400, "message": "temperature too hot"}}]}`, "", llm.KindBadRequest, 400},
			{"mid-stream", `{"responses": [{"text": ["par", "tial"], "streamError": {"message": "upstream died", "type": "server_error"}}]}`, "", llm.KindServer, 0},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				srv := llmtest.Start(t, script(t, c.script))
				var text string
				_, err := clientFor(t, api, srv.URL).Stream(context.Background(),
					llm.Request{Model: c.model, Messages: []llm.Message{llm.User("hi")}}, func(s string) { text += s })
				var e *llm.Error
				if !errors.As(err, &e) {
					t.Fatalf("err = %v (%T), want *llm.Error", err, err)
				}
				if e.Kind != c.want || e.Status != c.status || e.Message == "" {
					t.Fatalf("got kind %s status %d %q, want %s %d", e.Kind, e.Status, e.Message, c.want, c.status)
				}
				if c.name == "mid-stream" && (text != "partial" || !strings.Contains(e.Message, "upstream died")) {
					t.Fatalf("text %q, message %q", text, e.Message)
				}
			})
		}
	})
}

func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}

func TestStreamUnreachable(t *testing.T) {
	bothAPIs(t, func(t *testing.T, api llm.API) {
		_, err := clientFor(t, api, closedPort(t)).Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("hi")}}, nil)
		if k := llm.KindOf(err); k != llm.KindUnreachable {
			t.Fatalf("kind %q, err %v", k, err)
		}
		var e *llm.Error
		if !errors.As(err, &e) || !e.Retryable() {
			t.Fatalf("unreachable should be retryable: %v", err)
		}
	})
}

func TestStreamCancelMidStream(t *testing.T) {
	bothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, script(t, `{"responses": [{"text": ["Hel", "lo"], "hang": true}]}`))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		resp, err := clientFor(t, api, srv.URL).Stream(ctx, llm.Request{Messages: []llm.Message{llm.User("hi")}}, func(s string) {
			if s == "Hel" {
				cancel() // the server holds the stream open: only the cancel can end it
			}
		})
		if k := llm.KindOf(err); k != llm.KindCancelled {
			t.Fatalf("kind %q, err %v", k, err)
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancel error does not wrap context.Canceled: %v", err)
		}
		if !strings.HasPrefix(resp.Message.Text, "Hel") {
			t.Errorf("partial text %q", resp.Message.Text)
		}
	})
}

func TestNewRefusesBadConfig(t *testing.T) {
	for _, u := range []string{"", "localhost:1234", "ftp://x/v1"} {
		if _, err := llm.New(llm.Config{BaseURL: u}); llm.KindOf(err) != llm.KindBadConfig {
			t.Errorf("New(%q) = %v", u, err)
		}
	}
	c, err := llm.New(llm.Config{BaseURL: "http://127.0.0.1:1/v1"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Stream(context.Background(), llm.Request{}, nil); llm.KindOf(err) != llm.KindBadConfig {
		t.Errorf("no model: %v", err)
	}
}

func TestAPIKeyNeverInErrors(t *testing.T) {
	bothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, script(t, `{"apiKey": "right", "responses": []}`))
		_, err := clientFor(t, api, srv.URL).Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("x")}}, nil)
		if err == nil || strings.Contains(err.Error(), "sk-test") {
			t.Fatalf("err %v", err)
		}
	})
}

func TestStreamConnectionBreaksMidStream(t *testing.T) {
	bothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.StartUnchecked(script(t, `{"responses": [{"text": ["Hel", "lo"], "hang": true}]}`))
		resp, err := clientFor(t, api, srv.URL).Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("hi")}}, func(s string) {
			if s == "Hel" {
				go srv.Close()
			}
		})
		if k := llm.KindOf(err); k != llm.KindUnreachable {
			t.Fatalf("kind %q, err %v", k, err)
		}
		if !strings.HasPrefix(resp.Message.Text, "Hel") {
			t.Errorf("partial text %q", resp.Message.Text)
		}
	})
}

// The explicit configuration wins over OPENAI_BASE_URL and OPENAI_API_KEY.
func TestClientIgnoresOpenAIEnvironment(t *testing.T) {
	srv := llmtest.Start(t, script(t, `{"apiKey": "sk-test", "responses": [{"text": "ok"}]}`))
	clearEnv(t)
	t.Setenv("OPENAI_BASE_URL", closedPort(t))
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	c, err := llm.New(llm.Config{BaseURL: srv.URL, APIKey: "sk-test", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("x")}}, nil); err != nil {
		t.Fatal(err)
	}
}

// Delays between chunks change nothing but pace.
func TestStreamWithDelays(t *testing.T) {
	bothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, script(t, `{"responses": [{"text": ["a", "b", "c"], "delayMs": 2}]}`))
		resp, err := clientFor(t, api, srv.URL).Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("x")}}, nil)
		if err != nil || resp.Message.Text != "abc" {
			t.Fatalf("%+v, %v", resp, err)
		}
	})
}
