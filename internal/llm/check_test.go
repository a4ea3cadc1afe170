package llm_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
)

const twoCalls = `{"responses": [
	{"toolCalls": [{"id": "call_1", "name": "read_file", "arguments": "{}"}, {"id": "call_2", "name": "read_file", "arguments": "{}"}]},
	{"text": "done"}]}`

// runTwice makes the two calls, then sends follow-up as the second request,
// over each API, whose servers must find the same violations.
func runTwice(t *testing.T, followUp func(first llm.Message) []llm.Message) []string {
	t.Helper()
	chat := runTwiceOver(t, llm.APIChat, followUp)
	if v := runTwiceOver(t, llm.APIResponses, followUp); !slices.Equal(v, chat) {
		t.Errorf("responses: violations %q differ from chat's %q", v, chat)
	}
	return chat
}

func runTwiceOver(t *testing.T, api llm.API, followUp func(first llm.Message) []llm.Message) []string {
	t.Helper()
	srv := llmtest.StartUnchecked(script(t, twoCalls))
	defer srv.Close()
	c := clientFor(t, api, srv.URL)
	resp, err := c.Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("go")}}, nil)
	if err != nil || len(resp.Message.ToolCalls) != 2 {
		t.Fatalf("%+v, %v", resp, err)
	}
	if _, err := c.Stream(context.Background(), llm.Request{Messages: followUp(resp.Message)}, nil); err != nil {
		t.Fatal(err)
	}
	return srv.Violations()
}

func wantViolation(t *testing.T, got []string, substr string) {
	t.Helper()
	for _, v := range got {
		if strings.Contains(v, substr) {
			return
		}
	}
	t.Fatalf("no violation mentioning %q in %q", substr, got)
}

func TestCheckPassesWhenEveryCallHasOneResult(t *testing.T) {
	got := runTwice(t, func(first llm.Message) []llm.Message {
		return []llm.Message{llm.User("go"), first, llm.ToolResult("call_1", "a"), llm.ToolResult("call_2", "b")}
	})
	if len(got) != 0 {
		t.Fatalf("violations %q", got)
	}
}

func TestCheckFiresOnMissingResult(t *testing.T) {
	got := runTwice(t, func(first llm.Message) []llm.Message {
		return []llm.Message{llm.User("go"), first, llm.ToolResult("call_1", "a")}
	})
	wantViolation(t, got, "tool call call_2 has 0 results")
}

func TestCheckFiresOnDuplicateResult(t *testing.T) {
	got := runTwice(t, func(first llm.Message) []llm.Message {
		return []llm.Message{llm.User("go"), first, llm.ToolResult("call_1", "a"), llm.ToolResult("call_2", "b"), llm.ToolResult("call_2", "b")}
	})
	wantViolation(t, got, "tool call call_2 has 2 results")
}

func TestCheckFiresOnOrphanResult(t *testing.T) {
	got := runTwice(t, func(first llm.Message) []llm.Message {
		return []llm.Message{llm.User("go"), first, llm.ToolResult("call_1", "a"), llm.ToolResult("call_2", "b"), llm.ToolResult("call_9", "c")}
	})
	wantViolation(t, got, `call "call_9", which no earlier message made`)
}

func TestCheckFiresWhenCallsAreDropped(t *testing.T) {
	got := runTwice(t, func(llm.Message) []llm.Message {
		return []llm.Message{llm.User("go"), llm.User("again")}
	})
	wantViolation(t, got, "lacks tool call call_1 (made in response 0)")
	wantViolation(t, got, "lacks tool call call_2")
}

func TestCheckFiresBeyondScript(t *testing.T) {
	srv := llmtest.StartUnchecked(script(t, `{"responses": []}`))
	defer srv.Close()
	_, err := client(t, srv.URL).Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("x")}}, nil)
	if llm.KindOf(err) != llm.KindServer {
		t.Fatalf("err %v", err)
	}
	wantViolation(t, srv.Violations(), "beyond the script")
}

// Start reports violations to the test: run it against a recording TB.
type recordingTB struct {
	testing.TB
	errors   []string
	cleanups []func()
}

func (r *recordingTB) Errorf(format string, args ...any) { r.errors = append(r.errors, format) }
func (r *recordingTB) Cleanup(f func())                  { r.cleanups = append(r.cleanups, f) }
func (r *recordingTB) Helper()                           {}

func TestStartFailsTheTestOnViolation(t *testing.T) {
	rec := &recordingTB{TB: t}
	srv := llmtest.Start(rec, script(t, twoCalls))
	c := client(t, srv.URL)
	if _, err := c.Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("go")}}, nil); err != nil {
		t.Fatal(err)
	}
	c.Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("go")}}, nil)
	for i := len(rec.cleanups) - 1; i >= 0; i-- {
		rec.cleanups[i]()
	}
	if len(rec.errors) < 2 {
		t.Fatalf("Start reported %d errors, want one per dropped call", len(rec.errors))
	}
}

func TestStartFailsOnUnusedResponses(t *testing.T) {
	rec := &recordingTB{TB: t}
	llmtest.Start(rec, script(t, `{"responses": [{"text": "never asked"}]}`))
	for _, f := range rec.cleanups {
		f()
	}
	if len(rec.errors) != 1 {
		t.Fatalf("errors %q", rec.errors)
	}
}
