package agent

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

func TestMain(m *testing.M) {
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "OPENAI_") {
			os.Unsetenv(k)
		}
	}
	os.Exit(m.Run())
}

// recorder keeps every event of a turn.
type recorder struct {
	mu     sync.Mutex
	events []protocol.Event
	onType map[protocol.EventType]func(protocol.Event)
}

func (r *recorder) Publish(e protocol.Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	f := r.onType[e.Type]
	r.mu.Unlock()
	if f != nil {
		f(e)
	}
}

func (r *recorder) ofType(t protocol.EventType) []protocol.Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []protocol.Event
	for _, e := range r.events {
		if e.Type == t {
			out = append(out, e)
		}
	}
	return out
}

// The test tools are small real tools: echo returns its text, wait blocks
// until its context ends, boom fails inside Gatehouse.
func testTools(t *testing.T, policy tools.Policy, mws ...tools.Middleware) *tools.Router {
	t.Helper()
	reg, _ := tools.NewRegistry()
	obj := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(reg.Add(tools.Spec{Name: "echo", Parameters: obj, ReadOnly: true}, func(_ context.Context, args json.RawMessage) (tools.Result, error) {
		var a struct {
			Text string `json:"text"`
		}
		if res, ok := tools.DecodeArgs(args, &a); !ok {
			return res, nil
		}
		if a.Text == "fail" {
			return tools.Fail(tools.CodeNotFound, "no such thing: fail", ""), nil
		}
		return tools.OK(map[string]string{"echo": a.Text})
	}))
	must(reg.Add(tools.Spec{Name: "wait", Parameters: obj}, func(ctx context.Context, _ json.RawMessage) (tools.Result, error) {
		select {
		case <-ctx.Done():
			return tools.Fail(tools.CodeTimeout, "interrupted", ""), nil
		case <-time.After(30 * time.Second):
			return tools.OK("waited")
		}
	}))
	must(reg.Add(tools.Spec{Name: "boom", Parameters: obj}, func(context.Context, json.RawMessage) (tools.Result, error) {
		return tools.Result{}, errors.New("disk on fire")
	}))
	return tools.NewRouter(reg, policy, mws...)
}

func newAgent(t *testing.T, srv *llmtest.Server, router *tools.Router, rec *recorder) *Agent {
	t.Helper()
	return newAgentOver(t, llm.APIChat, srv, router, rec)
}

// newAgentOver is newAgent whose client speaks api.
func newAgentOver(t *testing.T, api llm.API, srv *llmtest.Server, router *tools.Router, rec *recorder) *Agent {
	t.Helper()
	client, err := llm.New(llm.Config{API: api, BaseURL: srv.URL, APIKey: "sk-test", Model: "fake-model"})
	if err != nil {
		t.Fatal(err)
	}
	return New(Config{Model: client, Tools: router, Events: rec, SessionID: "s1", System: "be brief", MaxSteps: 5})
}

// overBothAPIs runs f as a subtest per API: the loop must behave the same
// whichever protocol the client speaks, and the fake server checks the
// call/result pairing on both.
func overBothAPIs(t *testing.T, f func(t *testing.T, api llm.API)) {
	for _, api := range []llm.API{llm.APIChat, llm.APIResponses} {
		t.Run(string(api), func(t *testing.T) { f(t, api) })
	}
}

func call(id, name, args string) llmtest.ToolCall {
	return llmtest.ToolCall{ID: id, Name: name, Arguments: llmtest.Text(args)}
}

func resultOf(t *testing.T, rec *recorder, callID string) (string, bool) {
	t.Helper()
	for _, e := range rec.ofType(protocol.ToolFinished) {
		p := e.Payload.(protocol.ToolFinishedPayload)
		if p.CallID == callID {
			return string(p.Result), p.IsError
		}
	}
	t.Fatalf("no tool.finished for %s", callID)
	return "", false
}

func TestTextOnlyTurn(t *testing.T) {
	overBothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
			{Text: llmtest.Text("Hello ", "**there**"), Usage: &llmtest.Usage{PromptTokens: 20, CompletionTokens: 2}},
		}})
		rec := &recorder{}
		out := newAgentOver(t, api, srv, testTools(t, tools.Policy{}), rec).Run(context.Background(), "t1", "hello")
		if out.Reason != protocol.StopCompleted || out.Usage.PromptTokens != 20 {
			t.Fatalf("outcome %+v", out)
		}
		done := rec.ofType(protocol.MessageDone)
		if len(done) != 1 || done[0].Payload.(protocol.MessageDonePayload).Text != "Hello **there**" {
			t.Fatalf("message.done %+v", done)
		}
		if len(rec.ofType(protocol.MessageDelta)) != 2 {
			t.Errorf("want 2 deltas")
		}
		first, last := rec.events[0], rec.events[len(rec.events)-1]
		if first.Type != protocol.TurnStarted || last.Type != protocol.TurnStopped || last.TurnID != "t1" {
			t.Errorf("turn framing: %s … %s", first.Type, last.Type)
		}
		reqs := srv.ModelRequests()
		if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), `"be brief"`) {
			t.Errorf("system prompt not sent")
		}
	})
}

func TestToolCallsAndResultsPairUp(t *testing.T) {
	overBothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{call("c1", "echo", `{"text":"a"}`)}},
			{ToolCalls: []llmtest.ToolCall{call("c2", "echo", `{"text":"b"}`), call("c3", "echo", `{"text":"fail"}`), call("c4", "echo", `{"text":`)}, Interleave: true},
			{ToolCalls: []llmtest.ToolCall{call("c5", "nope", `{}`), call("c6", "wait", `{}`)}},
			{Text: llmtest.Text("done")},
		}})
		rec := &recorder{}
		a := newAgentOver(t, api, srv, testTools(t, tools.AllowOnly("echo", "boom")), rec)
		out := a.Run(context.Background(), "", "go")
		if out.Reason != protocol.StopCompleted {
			t.Fatalf("outcome %+v", out)
		}
		if r, isErr := resultOf(t, rec, "c2"); isErr || !strings.Contains(r, `"b"`) {
			t.Errorf("c2: %s", r)
		}
		for id, code := range map[string]string{"c3": tools.CodeNotFound, "c4": tools.CodeInvalidArguments, "c5": tools.CodeUnknownTool, "c6": tools.CodeToolNotAllowed} {
			if r, isErr := resultOf(t, rec, id); !isErr || !strings.Contains(r, code) {
				t.Errorf("%s: want %s error, got %s", id, code, r)
			}
		}
		// The fake server itself fails the test if a request lacks a result;
		// check the last request carried all six.
		reqs := srv.ModelRequests()
		result := map[llm.API]string{llm.APIChat: `"role":"tool"`, llm.APIResponses: `"type":"function_call_output"`}[api]
		if n := strings.Count(string(reqs[3].Body), result); n != 6 {
			t.Errorf("last request carries %d tool results, want 6", n)
		}
	})
}

func TestMaxSteps(t *testing.T) {
	overBothAPIs(t, func(t *testing.T, api llm.API) {
		var rs []llmtest.Response
		for i := range 5 {
			rs = append(rs, llmtest.Response{ToolCalls: []llmtest.ToolCall{call("c"+string(rune('0'+i)), "echo", `{"text":"x"}`)}})
		}
		srv := llmtest.Start(t, llmtest.Script{Responses: rs})
		rec := &recorder{}
		out := newAgentOver(t, api, srv, testTools(t, tools.Policy{}), rec).Run(context.Background(), "", "loop")
		if out.Reason != protocol.StopMaxSteps {
			t.Fatalf("outcome %+v", out)
		}
	})
}

func TestToolInfrastructureErrorStopsTheTurn(t *testing.T) {
	overBothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{call("c1", "boom", `{}`), call("c2", "echo", `{"text":"never"}`)}},
		}})
		rec := &recorder{}
		a := newAgentOver(t, api, srv, testTools(t, tools.Policy{}), rec)
		out := a.Run(context.Background(), "", "go")
		if out.Reason != protocol.StopError || out.Err == nil || !strings.Contains(out.Err.Error(), "disk on fire") {
			t.Fatalf("outcome %+v", out)
		}
		if r, _ := resultOf(t, rec, "c2"); !strings.Contains(r, tools.CodeNotRun) {
			t.Errorf("c2 should be not_run: %s", r)
		}
		assertPaired(t, a.History())
	})
}

func TestRejectedCallBlocksTheTurn(t *testing.T) {
	overBothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{call("c1", "echo", `{"text":"a"}`), call("c2", "echo", `{"text":"b"}`)}},
		}})
		reject := func(_ tools.Tool, next tools.Handler) tools.Handler {
			return func(ctx context.Context, c tools.Call) (tools.Result, error) {
				res := tools.Fail(tools.CodeApprovalRejected, "[approval-rejected] not now", "")
				res.Rejected = true
				return res, nil
			}
		}
		rec := &recorder{}
		a := newAgentOver(t, api, srv, testTools(t, tools.Policy{}, reject), rec)
		out := a.Run(context.Background(), "", "go")
		if out.Reason != protocol.StopBlockedByApproval {
			t.Fatalf("outcome %+v", out)
		}
		if r, _ := resultOf(t, rec, "c2"); !strings.Contains(r, "blocked_by_approval") {
			t.Errorf("c2: %s", r)
		}
		assertPaired(t, a.History())
	})
}

func TestCancelMidStream(t *testing.T) {
	overBothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
			{Text: llmtest.Text("Hel", "lo"), Hang: true},
			{Text: llmtest.Text("after")},
		}})
		ctx, cancel := context.WithCancel(context.Background())
		rec := &recorder{onType: map[protocol.EventType]func(protocol.Event){
			protocol.MessageDelta: func(e protocol.Event) {
				if e.Payload.(protocol.MessageDeltaPayload).Text == "lo" {
					cancel()
				}
			},
		}}
		a := newAgentOver(t, api, srv, testTools(t, tools.Policy{}), rec)
		out := a.Run(ctx, "", "hi")
		if out.Reason != protocol.StopCancelled {
			t.Fatalf("outcome %+v", out)
		}
		done := rec.ofType(protocol.MessageDone)
		if p := done[0].Payload.(protocol.MessageDonePayload); !p.Cancelled || p.Text != "Hello" {
			t.Errorf("message.done %+v", p)
		}
		// The next turn carries the partial reply and goes on normally.
		if out := a.Run(context.Background(), "", "again"); out.Reason != protocol.StopCompleted {
			t.Fatalf("second turn %+v", out)
		}
	})
}

func TestCancelMidTool(t *testing.T) {
	overBothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{call("c1", "wait", `{}`), call("c2", "echo", `{"text":"x"}`)}},
			{Text: llmtest.Text("ok")},
		}})
		ctx, cancel := context.WithCancel(context.Background())
		rec := &recorder{onType: map[protocol.EventType]func(protocol.Event){
			protocol.ToolStarted: func(e protocol.Event) {
				if e.Payload.(protocol.ToolStartedPayload).CallID == "c1" {
					go cancel()
				}
			},
		}}
		a := newAgentOver(t, api, srv, testTools(t, tools.Policy{}), rec)
		out := a.Run(ctx, "", "wait")
		if out.Reason != protocol.StopCancelled {
			t.Fatalf("outcome %+v", out)
		}
		if r, _ := resultOf(t, rec, "c2"); !strings.Contains(r, "cancelled") {
			t.Errorf("c2: %s", r)
		}
		// The fake server checks the next request pairs both calls with results.
		if out := a.Run(context.Background(), "", "next"); out.Reason != protocol.StopCompleted {
			t.Fatalf("next turn %+v", out)
		}
	})
}

func TestModelErrorMidStream(t *testing.T) {
	overBothAPIs(t, func(t *testing.T, api llm.API) {
		srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
			{Text: llmtest.Text("partial"), StreamError: &llmtest.APIError{Status: 500, Message: "upstream broke"}},
		}})
		rec := &recorder{}
		out := newAgentOver(t, api, srv, testTools(t, tools.Policy{}), rec).Run(context.Background(), "", "hi")
		if out.Reason != protocol.StopError || out.Err == nil {
			t.Fatalf("outcome %+v", out)
		}
		stop := rec.ofType(protocol.TurnStopped)[0].Payload.(protocol.TurnStoppedPayload)
		if stop.Error == "" || stop.ErrorKind == "" {
			t.Errorf("turn.stopped should carry a readable error and its kind: %+v", stop)
		}
	})
}

func TestContextTrimsOldToolOutputsFirst(t *testing.T) {
	a := New(Config{ContextWindow: 1000})
	big := strings.Repeat("x", 2400)
	a.SetHistory([]llm.Message{
		llm.User("u1"),
		llm.Assistant("", llm.ToolCall{ID: "a", Name: "echo", Arguments: "{}"}),
		llm.ToolResult("a", big),
		llm.Assistant("", llm.ToolCall{ID: "b", Name: "echo", Arguments: "{}"}),
		llm.ToolResult("b", big),
	})
	msgs, trimmed, _ := a.fit(nil)
	if trimmed != 1 || !strings.Contains(msgs[2].Text, "cleared") || msgs[4].Text != big {
		t.Fatalf("trimmed %d; first %q…; the latest result must stay", trimmed, msgs[2].Text[:10])
	}
}

func TestSystemPromptReadsAgentsMD(t *testing.T) {
	dir := t.TempDir()
	if p := SystemPrompt(dir); !strings.Contains(p, dir) || strings.Contains(p, "AGENTS.md)") {
		t.Fatalf("prompt without AGENTS.md: %s", p)
	}
	os.WriteFile(dir+"/AGENTS.md", []byte("Always use tabs."), 0o644)
	if p := SystemPrompt(dir); !strings.Contains(p, "Always use tabs.") {
		t.Fatalf("AGENTS.md missing: %s", p)
	}
}

// assertPaired checks that every tool call in h has exactly one result.
func assertPaired(t *testing.T, h []llm.Message) {
	t.Helper()
	want := map[string]int{}
	for _, m := range h {
		for _, c := range m.ToolCalls {
			want[c.ID]++
		}
		if m.Role == llm.RoleTool {
			want[m.ToolCallID]--
		}
	}
	for id, n := range want {
		if n != 0 {
			t.Errorf("call %s: %d unpaired", id, n)
		}
	}
}
