package session

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/agent"
	"gatehouse/internal/events"
	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

func TestMain(m *testing.M) {
	if os.Getenv(crashChildEnv) != "" {
		os.Exit(crashChild())
	}
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "OPENAI_") {
			os.Unsetenv(k)
		}
	}
	os.Exit(m.Run())
}

// assertPaired checks that every call has exactly one result, right after
// its assistant message, and every result answers such a call.
func assertPaired(t *testing.T, h []llm.Message) {
	t.Helper()
	for i := 0; i < len(h); i++ {
		m := h[i]
		if m.Role == llm.RoleTool {
			t.Fatalf("message %d: result for %s without its call", i, m.ToolCallID)
		}
		if m.Role != llm.RoleAssistant || len(m.ToolCalls) == 0 {
			continue
		}
		want := map[string]bool{}
		for _, c := range m.ToolCalls {
			if want[c.ID] {
				t.Fatalf("message %d: call %s twice", i, c.ID)
			}
			want[c.ID] = true
		}
		for len(want) > 0 {
			i++
			if i >= len(h) || h[i].Role != llm.RoleTool || !want[h[i].ToolCallID] {
				t.Fatalf("message %d: calls %v lack their results", i, want)
			}
			delete(want, h[i].ToolCallID)
		}
	}
}

func echoTools(t *testing.T) *tools.Router {
	t.Helper()
	reg, _ := tools.NewRegistry()
	obj := json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)
	err := reg.Add(tools.Spec{Name: "echo", Parameters: obj, ReadOnly: true}, func(ctx context.Context, args json.RawMessage) (tools.Result, error) {
		var a struct {
			Text string `json:"text"`
		}
		if res, ok := tools.DecodeArgs(args, &a); !ok {
			return res, nil
		}
		if a.Text == "wait" {
			<-ctx.Done()
			return tools.Fail(tools.CodeTimeout, "interrupted", ""), nil
		}
		return tools.OK(map[string]string{"echo": a.Text})
	})
	if err != nil {
		t.Fatal(err)
	}
	return tools.NewRouter(reg, tools.Policy{})
}

func tc(id, args string) llmtest.ToolCall {
	return llmtest.ToolCall{ID: id, Name: "echo", Arguments: llmtest.Text(args)}
}

// The history rebuilt from the transcript is the history the live agent
// kept, turn after turn: results, errors, not-run results, cancels.
func TestHistoryFromTranscriptMatchesTheLiveAgent(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		// turn 1: two calls (one malformed), then an answer
		{Text: llmtest.Text("Let me see."), ToolCalls: []llmtest.ToolCall{tc("c1", `{"text":"a"}`), tc("c2", `{"text":`)}},
		{Text: llmtest.Text("Done.")},
		// turn 2: max steps after one call
		{ToolCalls: []llmtest.ToolCall{tc("c3", `{"text":"b"}`)}},
		{ToolCalls: []llmtest.ToolCall{tc("c4", `{"text":"c"}`)}},
		// turn 3: cancelled inside the first of two calls: the second is not run
		{ToolCalls: []llmtest.ToolCall{tc("c5", `{"text":"wait"}`), tc("c6", `{"text":"d"}`)}},
		// turn 4: cancelled mid-stream
		{Text: llmtest.Text("Half an ans"), Hang: true},
	}})
	client, err := llm.New(llm.Config{BaseURL: srv.URL, APIKey: "k", Model: "fake-model"})
	if err != nil {
		t.Fatal(err)
	}
	var logged []protocol.TranscriptItem
	state := NewState("s1", nil, func(it protocol.TranscriptItem) { logged = append(logged, it) })
	bus := events.New(state, events.Options{})
	a := agent.New(agent.Config{Model: client, Tools: echoTools(t), Events: bus, SessionID: "s1", MaxSteps: 2})

	run := func(turn string, cancelOn protocol.EventType) protocol.StopReason {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		if cancelOn != "" {
			go func() {
				for ctx.Err() == nil {
					bus.Flush()
					for _, it := range state.Snapshot().Transcript {
						if it.TurnID == turn && (cancelOn == protocol.ToolStarted && it.Running ||
							cancelOn == protocol.MessageDelta && it.Streaming) {
							cancel()
						}
					}
					time.Sleep(5 * time.Millisecond)
				}
			}()
		}
		return a.Run(ctx, turn, "prompt "+turn).Reason
	}
	if got := run("s1-t1", ""); got != protocol.StopCompleted {
		t.Fatalf("t1: %s", got)
	}
	if got := run("s1-t2", ""); got != protocol.StopMaxSteps {
		t.Fatalf("t2: %s", got)
	}
	if got := run("s1-t3", protocol.ToolStarted); got != protocol.StopCancelled {
		t.Fatalf("t3: %s", got)
	}
	if got := run("s1-t4", protocol.MessageDelta); got != protocol.StopCancelled {
		t.Fatalf("t4: %s", got)
	}
	bus.Close()

	live := a.History()
	rebuilt := HistoryFromTranscript(logged)
	assertPaired(t, rebuilt)
	if !reflect.DeepEqual(normal(live), normal(rebuilt)) {
		t.Fatalf("rebuilt history differs:\nlive    %+v\nrebuilt %+v", live, rebuilt)
	}
	if !strings.Contains(rebuilt[len(rebuilt)-1].Text, "Half an ans") {
		t.Errorf("the cancelled message's text is lost: %+v", rebuilt[len(rebuilt)-1])
	}
}

// normal makes nil and empty call lists equal.
func normal(h []llm.Message) []llm.Message {
	out := make([]llm.Message, len(h))
	for i, m := range h {
		if len(m.ToolCalls) == 0 {
			m.ToolCalls = nil
		}
		out[i] = m
	}
	return out
}

// A log cut anywhere (a crash) still rebuilds a paired history.
func TestHistoryFromEveryPrefixIsPaired(t *testing.T) {
	tool := func(id, turn string) protocol.TranscriptItem {
		return protocol.TranscriptItem{Kind: protocol.ItemTool, ID: id, TurnID: turn, Tool: "echo", Args: json.RawMessage(`{}`), Result: json.RawMessage(`{"ok":true}`)}
	}
	items := []protocol.TranscriptItem{
		userItem("t1", "a"),
		{Kind: protocol.ItemAssistant, ID: "m1", TurnID: "t1", Text: "x"},
		tool("c1", "t1"), tool("c2", "t1"),
		{Kind: protocol.ItemAssistant, ID: "m2", TurnID: "t1"},
		tool("c3", "t1"),
		{Kind: protocol.ItemAssistant, ID: "m3", TurnID: "t1", Text: "done"},
		stopItem("t1"),
		userItem("t2", "b"),
		tool("c4", "t2"), // no assistant item before it
		{Kind: protocol.ItemTool, ID: "c5", TurnID: "t2", Running: true},
		stopItem("t2"),
	}
	for n := range len(items) + 1 {
		h := HistoryFromTranscript(items[:n])
		assertPaired(t, h)
		for _, m := range h {
			if m.Role == llm.RoleAssistant && m.Text == "" && len(m.ToolCalls) == 0 {
				t.Fatalf("prefix %d: an empty assistant message", n)
			}
		}
	}
	h := HistoryFromTranscript(items)
	if len(h) != 10 || h[2].ToolCallID != "c1" || len(h[1].ToolCalls) != 2 || h[8].ToolCalls[0].ID != "c4" {
		t.Fatalf("history %+v", h)
	}
}

func TestLastTurn(t *testing.T) {
	user := func(turn string) protocol.TranscriptItem {
		return protocol.TranscriptItem{Kind: protocol.ItemUser, TurnID: turn}
	}
	for _, c := range []struct {
		items []protocol.TranscriptItem
		want  uint64
	}{
		{nil, 0},
		{[]protocol.TranscriptItem{user("s-t1"), {Kind: protocol.ItemStop, TurnID: "s-t1"}, user("s-t2")}, 2},
		{[]protocol.TranscriptItem{user("s-t7")}, 7},                              // turns were numbered past the count
		{[]protocol.TranscriptItem{user("odd"), user("s-tx")}, 2},                 // no number: the count
		{[]protocol.TranscriptItem{{Kind: protocol.ItemTool, TurnID: "s-t9"}}, 0}, // only user items count
	} {
		if got := LastTurn(c.items); got != c.want {
			t.Errorf("LastTurn(%v) = %d, want %d", c.items, got, c.want)
		}
	}
}
