//go:build linux

package approval_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"gatehouse/internal/agent"
	"gatehouse/internal/approval"
	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

func toolCall(id, name, args string) llmtest.ToolCall {
	return llmtest.ToolCall{ID: id, Name: name, Arguments: llmtest.Text(args)}
}

// TestRejectBlocksTheTurn drives the agent loop against the fake model: the
// user rejects the patch with a note; the turn stops blocked_by_approval,
// the model's result reads the note, the next call never runs, and no
// file changed.
func TestRejectBlocksTheTurn(t *testing.T) {
	h := newHarness(t, approval.Safe, map[string]string{"a.txt": "hello\n"})
	h.answerAll(protocol.Decision{Kind: protocol.DecisionReject, Note: "keep hello"})
	patch := "*** Begin Patch\n*** Update File: a.txt\n@@\n-hello\n+bye\n*** End Patch"
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{
			toolCall("c1", "read_file", `{"path":"a.txt"}`),
			toolCall("c2", "apply_patch", fmt.Sprintf(`{"patch":%q}`, patch)),
			toolCall("c3", "write_file", `{"path":"b.txt","content":"b"}`),
		}},
		{Text: llmtest.Text("ok, I will not")},
	}})
	client, err := llm.New(llm.Config{BaseURL: srv.URL, APIKey: "sk-test", Model: "fake-model"})
	if err != nil {
		t.Fatal(err)
	}
	a := agent.New(agent.Config{Model: client, Tools: h.router, Events: h, SessionID: "s1", MaxSteps: 5})
	out := a.Run(context.Background(), "t1", "change it")
	if out.Reason != protocol.StopBlockedByApproval {
		t.Fatalf("outcome %+v", out)
	}
	if b := out.Blocked; b == nil || b.CallID != "c2" || b.Tool != "apply_patch" || b.Note != "keep hello" {
		t.Errorf("blocked %+v", out.Blocked)
	}
	results := map[string]string{}
	for _, e := range h.allEvents() {
		if p, ok := e.Payload.(protocol.ToolFinishedPayload); ok {
			results[p.CallID] = string(p.Result)
		}
	}
	if !strings.Contains(results["c1"], "hello") {
		t.Errorf("read_file asked or failed: %s", results["c1"])
	}
	if !strings.Contains(results["c2"], "[approval-rejected] keep hello") || !strings.Contains(results["c2"], "approval_rejected") {
		t.Errorf("c2: %s", results["c2"])
	}
	if !strings.Contains(results["c3"], "not_run") {
		t.Errorf("c3: %s", results["c3"])
	}
	if h.read("a.txt") != "hello\n" || !strings.HasPrefix(h.read("b.txt"), "<") {
		t.Error("a file changed")
	}
	reqs := h.requests()
	if len(reqs) != 1 || reqs[0].CallID != "c2" {
		t.Fatalf("requests %+v", reqs)
	}
	for _, e := range h.allEvents() {
		if e.Type == protocol.ApprovalRequested && e.TurnID != "t1" {
			t.Errorf("approval.requested in turn %q", e.TurnID)
		}
	}
	// The next turn sends every call paired with its result (the fake
	// server checks) and goes on.
	if out := a.Run(context.Background(), "t2", "fine"); out.Reason != protocol.StopCompleted {
		t.Fatalf("next turn %+v", out)
	}
}
