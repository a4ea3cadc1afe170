package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// summaryRule answers every summary request with summary.
func summaryRule(summary string) []llmtest.Rule {
	return []llmtest.Rule{{LastContains: "checkpoint summary", Response: llmtest.Response{Text: llmtest.Text(summary)}}}
}

// sentMessages is a recorded chat request's messages: role and content.
func sentMessages(t *testing.T, rec llmtest.Recorded) []struct{ Role, Content string } {
	t.Helper()
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(rec.Body, &body); err != nil {
		t.Fatal(err)
	}
	out := make([]struct{ Role, Content string }, len(body.Messages))
	for i, m := range body.Messages {
		out[i].Role, out[i].Content = m.Role, m.Content
	}
	return out
}

func newClient(t *testing.T, srv *llmtest.Server) *llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{BaseURL: srv.URL, APIKey: "sk-test", Model: "fake-model"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func withID(m llm.Message, id string) llm.Message {
	m.ID = id
	return m
}

// Past the threshold, old tool outputs become a stub naming the call; every
// call keeps one result, and the last prompt and the latest results are
// sent whole. The history keeps the outputs.
func TestMicroCompactionStubsOldOutputsOnly(t *testing.T) {
	a := New(Config{ContextWindow: 4000})
	out := strings.Repeat("ok 1 - test passes\n", 200) // 3,800 bytes, 201 lines
	last := strings.Repeat("please keep going ", 300)  // a long prompt
	a.SetHistory([]llm.Message{
		llm.User("run the tests"),
		llm.Assistant("", llm.ToolCall{ID: "a", Name: "bash", Arguments: `{"action":"exec","command":"npm test"}`}),
		llm.ToolResult("a", out),
		llm.Assistant("", llm.ToolCall{ID: "b", Name: "read_file", Arguments: `{"path":"src/app.ts"}`},
			llm.ToolCall{ID: "c", Name: "echo", Arguments: `{"text":"x"}`}),
		llm.ToolResult("b", out), llm.ToolResult("c", out),
		llm.Assistant("Tests pass."),
		llm.User(last),
		llm.Assistant("", llm.ToolCall{ID: "d", Name: "bash", Arguments: `{"command":"make"}`}),
		llm.ToolResult("d", out),
	})
	msgs, cleared, size := a.fit(nil)
	if cleared == 0 || size > 4000*70/100 {
		t.Fatalf("cleared %d, size %d", cleared, size)
	}
	assertPaired(t, msgs)
	byID := map[string]string{}
	for _, m := range msgs {
		if m.Role == llm.RoleTool {
			byID[m.ToolCallID] = m.Text
		}
	}
	want := "output of `npm test` (201 lines, 3,800 bytes) cleared to save context; run it again, or read the process's log (bash logs) if you need it"
	var stub struct{ Note string }
	if err := json.Unmarshal([]byte(byID["a"]), &stub); err != nil || stub.Note != want {
		t.Errorf("stub of a: %s (%v)", byID["a"], err)
	}
	if byID["d"] != out {
		t.Error("the latest result was cleared")
	}
	if msgs[len(msgs)-3].Text != last {
		t.Error("the last prompt changed")
	}
	// The stubs stay: a later request starts the same.
	again, _, _ := a.fit(nil)
	for i := range msgs {
		if again[i].Text != msgs[i].Text {
			t.Fatalf("message %d changed between requests", i)
		}
	}
	for _, m := range a.History() {
		if m.Role == llm.RoleTool && m.Text != out {
			t.Fatal("the history lost an output")
		}
	}
}

// Past CompactAt, the model writes a summary; the next request sends it and
// the recent messages instead of the older ones.
func TestSummaryCompactionSendsSummaryAndRecentTurns(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{When: summaryRule("SUMMARY: the user wants a health endpoint."),
		Responses: []llmtest.Response{{Text: llmtest.Text("Carrying on.")}, {Text: llmtest.Text("Full again.")}}})
	rec := &recorder{}
	var heard []bool // BeforeCompact (the PreCompact hooks) hears the automatic one
	a := New(Config{Model: newClient(t, srv), Events: rec, SessionID: "s1", System: "be brief", ContextWindow: 2000,
		BeforeCompact: func(_ context.Context, manual bool) { heard = append(heard, manual) }})
	old := strings.Repeat("an old long answer ", 200) // prose: micro-compaction cannot help
	a.SetHistory([]llm.Message{
		withID(llm.User("add a health endpoint"), "s1-t1"), withID(llm.Assistant(old), "m1"),
		withID(llm.User("and tests"), "s1-t2"), withID(llm.Assistant(old), "m2"),
	})
	out := a.Run(context.Background(), "s1-t3", "go on")
	if out.Reason != protocol.StopCompleted || out.Compactions != 1 {
		t.Fatalf("outcome %+v", out)
	}
	if len(heard) != 1 || heard[0] {
		t.Errorf("BeforeCompact heard %v, want one automatic compaction", heard)
	}
	reqs := srv.ModelRequests()
	if len(reqs) != 2 || reqs[0].Rule != 1 {
		t.Fatalf("requests %+v: want the summary request, then the turn's", reqs)
	}
	if out.Usage.PromptTokens != reqs[0].PromptTokens+reqs[1].PromptTokens {
		t.Errorf("the turn's usage %+v leaves out the summary request", out.Usage)
	}
	sum := sentMessages(t, reqs[0])
	if !strings.Contains(sum[len(sum)-1].Content, "quoted exactly") || !strings.Contains(sum[1].Content, "add a health endpoint") {
		t.Errorf("the summary request should send the session and our prompt: %+v", sum)
	}
	got := sentMessages(t, reqs[1])
	if len(got) != 3 || got[0].Role != "system" || !strings.Contains(got[1].Content, "SUMMARY: the user wants") || got[2].Content != "go on" {
		t.Fatalf("request after the summary: %+v", got)
	}
	ev := rec.ofType(protocol.ContextCompacted)
	if len(ev) != 1 {
		t.Fatalf("%d context.compacted events", len(ev))
	}
	p := ev[0].Payload.(protocol.ContextCompactedPayload)
	if p.Summary != "SUMMARY: the user wants a health endpoint." || p.Compaction.KeepFrom != "s1-t3" || p.Compaction.Replaced != 4 || p.Compaction.Manual {
		t.Errorf("payload %+v", p)
	}
	if c := stopOf(t, rec).Context; c == nil || !c.Compacted {
		t.Errorf("turn.stopped context %+v", c)
	}
	if len(a.History()) != 6 {
		t.Errorf("the history keeps every message: %d", len(a.History()))
	}

	// Undone before the next turn, the full history is sent again.
	if err := a.UndoCompact(); err != nil {
		t.Fatal(err)
	}
	if err := a.UndoCompact(); err == nil {
		t.Fatal("a second undo should fail")
	}
	a.cfg.CompactAt = 100 // let the full history through
	a.cfg.ContextWindow = 100_000
	if out := a.Run(context.Background(), "s1-t4", "more"); out.Reason != protocol.StopCompleted {
		t.Fatalf("outcome %+v", out)
	}
	full := sentMessages(t, srv.ModelRequests()[2])
	if len(full) != 8 || full[1].Content != "add a health endpoint" {
		t.Fatalf("after undo: %d messages", len(full))
	}
}

// A context_length_exceeded refusal is not fatal: the agent learns the
// window from it, compacts, and tries again once.
func TestRefusalCompactsAndRetriesOnce(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{ContextWindow: 1500, When: summaryRule("SUMMARY"),
		Responses: []llmtest.Response{{Text: llmtest.Text("done")}}})
	rec := &recorder{}
	a := New(Config{Model: newClient(t, srv), Events: rec, SessionID: "s1", ContextWindow: 100_000})
	a.SetHistory([]llm.Message{
		withID(llm.User("look"), "s1-t1"),
		withID(llm.Assistant("", llm.ToolCall{ID: "a", Name: "echo", Arguments: "{}"}), "m1"),
		withID(llm.ToolResult("a", strings.Repeat("y", 6000)), "a"),
		withID(llm.Assistant("seen"), "m2"),
	})
	out := a.Run(context.Background(), "s1-t2", "again")
	if out.Reason != protocol.StopCompleted || out.Compactions != 1 {
		t.Fatalf("outcome %+v (%v)", out, out.Err)
	}
	reqs := srv.ModelRequests()
	if len(reqs) != 3 || !reqs[0].Refused || reqs[1].Rule != 1 || reqs[2].Refused {
		t.Fatalf("requests: want refused, summary, retry: %+v", reqs)
	}
	if c := stopOf(t, rec).Context; c.Window != 1500 || c.WindowSource != "server" {
		t.Errorf("the refusal's window should be believed: %+v", c)
	}
}

// A summary the model fails to write does not stop the turn, and is not
// asked for again at every step.
func TestFailedSummaryIsNotFatal(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{
		When: []llmtest.Rule{{LastContains: "checkpoint summary", Response: llmtest.Response{
			Error: &llmtest.APIError{Status: 500, Message: "summarizer down"}}}},
		Responses: []llmtest.Response{
			{ToolCalls: []llmtest.ToolCall{call("c1", "echo", `{"text":"a"}`)}},
			{Text: llmtest.Text("done")},
		}})
	a := New(Config{Model: newClient(t, srv), Tools: testTools(t, tools.Policy{}), Events: &recorder{}, ContextWindow: 1000})
	a.SetHistory([]llm.Message{withID(llm.User(strings.Repeat("a long prompt ", 250)), "t0")})
	out := a.Run(context.Background(), "t1", "go")
	if out.Reason != protocol.StopCompleted || out.Compactions != 0 {
		t.Fatalf("outcome %+v (%v)", out, out.Err)
	}
	rules := 0
	for _, r := range srv.ModelRequests() {
		if r.Rule > 0 {
			rules++
		}
	}
	if rules != 1 {
		t.Fatalf("%d summary requests, want 1", rules)
	}
}

// Refused again after compacting, the turn stops with a clear reason.
func TestSecondRefusalStops(t *testing.T) {
	refuse := &llmtest.APIError{Status: 400, Code: "context_length_exceeded", Message: "too long"}
	srv := llmtest.Start(t, llmtest.Script{When: summaryRule("SUMMARY"),
		Responses: []llmtest.Response{{Error: refuse}, {Error: refuse}}})
	rec := &recorder{}
	a := New(Config{Model: newClient(t, srv), Events: rec, SessionID: "s1"})
	a.SetHistory([]llm.Message{withID(llm.User("one"), "s1-t1"), withID(llm.Assistant("two"), "m1")})
	out := a.Run(context.Background(), "s1-t2", "three")
	if out.Reason != protocol.StopError || llm.KindOf(out.Err) != llm.KindContextOverflow ||
		!strings.Contains(out.Err.Error(), "still too long") {
		t.Fatalf("outcome %+v (%v)", out, out.Err)
	}
	if stop := stopOf(t, rec); stop.ErrorKind != "context_overflow" {
		t.Errorf("stop %+v", stop)
	}
}

// By hand between turns; refused while nothing can be replaced.
func TestCompactByHand(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{When: summaryRule("SUMMARY by hand"),
		Responses: []llmtest.Response{{Text: llmtest.Text("ok")}}})
	rec := &recorder{}
	var heard []bool
	a := New(Config{Model: newClient(t, srv), Events: rec, SessionID: "s1",
		BeforeCompact: func(_ context.Context, manual bool) { heard = append(heard, manual) }})
	if err := a.Compact(context.Background()); err != ErrNothingToCompact {
		t.Fatalf("empty session: %v", err)
	}
	a.SetHistory([]llm.Message{withID(llm.User("one"), "s1-t1"), withID(llm.Assistant("two"), "m1")})
	if err := a.Compact(context.Background()); err != nil {
		t.Fatal(err)
	}
	ev := rec.ofType(protocol.ContextCompacted)
	if len(ev) != 1 || ev[0].TurnID != "" || !ev[0].Payload.(protocol.ContextCompactedPayload).Compaction.Manual {
		t.Fatalf("events %+v", ev)
	}
	if len(heard) != 1 || !heard[0] {
		t.Errorf("BeforeCompact heard %v, want one manual compaction (none for nothing to compact)", heard)
	}
	a.Run(context.Background(), "s1-t2", "three")
	got := sentMessages(t, srv.ModelRequests()[1])
	if len(got) != 3 || !strings.Contains(got[0].Content, "SUMMARY by hand") || got[1].Content != "two" || got[2].Content != "three" {
		t.Fatalf("request %+v", got)
	}
}

// The window the server's /models reports is the one used, and named.
func TestWindowFromTheServer(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Models: []string{"fake-model"},
		ModelMeta: map[string]map[string]any{"fake-model": {"max_model_len": 32768}},
		Responses: []llmtest.Response{{Text: llmtest.Text("hi")}}})
	rec := &recorder{}
	New(Config{Model: newClient(t, srv), Events: rec, ContextWindow: 9999}).Run(context.Background(), "", "hello")
	if c := stopOf(t, rec).Context; c.Window != 32768 || c.WindowSource != "server" {
		t.Fatalf("context %+v", c)
	}
}

// A long session: 300 tool calls of 20 KB each against a 32k window (the
// server's, from /models) finish without one refusal, every request under
// the window by the server's own count.
func TestLongSessionStaysInsideTheWindow(t *testing.T) {
	const calls = 300
	var script []llmtest.Response
	for i := range calls {
		script = append(script, llmtest.Response{ToolCalls: []llmtest.ToolCall{
			call(fmt.Sprintf("call_%d", i), "big", fmt.Sprintf(`{"n":%d}`, i))}})
	}
	script = append(script, llmtest.Response{Text: llmtest.Text("all done")})
	srv := llmtest.Start(t, llmtest.Script{Models: []string{"fake-model"}, ContextWindow: 32768,
		ModelMeta: map[string]map[string]any{"fake-model": {"max_model_len": 32768}},
		When:      summaryRule("Goal: read every chunk. Next: the next chunk."), Responses: script})
	reg, _ := tools.NewRegistry()
	chunk := strings.Repeat("a line of some tool output\n", 760) // ~20 KB
	if err := reg.Add(tools.Spec{Name: "big", Parameters: json.RawMessage(`{"type":"object"}`), ReadOnly: true},
		func(context.Context, json.RawMessage) (tools.Result, error) {
			return tools.OK(map[string]string{"out": chunk})
		}); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	a := New(Config{Model: newClient(t, srv), Tools: tools.NewRouter(reg, tools.Policy{}), Events: rec,
		SessionID: "s1", System: "be brief", MaxSteps: 2 * calls})
	out := a.Run(context.Background(), "s1-t1", "read all the chunks")
	if out.Reason != protocol.StopCompleted {
		t.Fatalf("outcome %+v (%v)", out, out.Err)
	}
	for i, r := range srv.ModelRequests() {
		if r.Refused || r.PromptTokens >= 32768 {
			t.Fatalf("request %d: %d tokens by the server's count, refused %v", i, r.PromptTokens, r.Refused)
		}
		// The turn's prompt is always sent whole, before any summary.
		if msgs := sentMessages(t, r); msgs[1].Content != "read all the chunks" {
			t.Fatalf("request %d starts %+v", i, msgs[1])
		}
	}
	if out.Compactions == 0 || out.Trimmed == 0 {
		t.Errorf("compactions %d, cleared %d: the test should need both", out.Compactions, out.Trimmed)
	}
	if h := a.History(); len(h) != 2+2*calls {
		t.Errorf("history %d messages, want all %d", len(h), 2+2*calls)
	}
}

// With a small window and a large fixed part of every request (a long
// system prompt here; a large tool surface does the same), long messages
// that alone overflow the window are shortened in the summary request, so
// the summary is written and the turn goes on inside the window.
func TestSummaryFitsWhenLongMessagesFillASmallWindow(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{ContextWindow: 2500, When: summaryRule("SUMMARY"),
		Responses: []llmtest.Response{{Text: llmtest.Text("done")}}})
	a := New(Config{Model: newClient(t, srv), Events: &recorder{}, SessionID: "s1", ContextWindow: 100_000,
		System: strings.Repeat("rules of the house ", 160)}) // ~3,000 bytes: about 1,000 of the server's tokens
	a.SetHistory([]llm.Message{
		withID(llm.User("write a lot"), "s1-t1"),
		withID(llm.Assistant(strings.Repeat("alpha ", 400)), "m1"),
		withID(llm.User("more"), "s1-t2"),
		withID(llm.Assistant(strings.Repeat("bravo ", 400)), "m2"),
	})
	out := a.Run(context.Background(), "s1-t3", "and now?")
	if out.Reason != protocol.StopCompleted || out.Compactions != 1 {
		t.Fatalf("outcome %+v (%v)", out, out.Err)
	}
	for i, r := range srv.ModelRequests() {
		if r.Rule == 1 && r.Refused {
			t.Errorf("request %d: the summary request was refused as too long", i)
		}
	}
}
