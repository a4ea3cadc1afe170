package runtime

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// In plan mode the model is offered only tools that read, and propose_plan;
// a forged call to a writing tool is refused unrun; propose_plan ends the
// turn with the plan in turn.stopped.
func TestPlanModeOffersOnlyReadingToolsAndEndsWithThePlan(t *testing.T) {
	plan := "1. Add `hello.txt`\n2. Check it"
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "write_file", `{"path":"hello.txt","content":"hi"}`),
		{ToolCalls: []llmtest.ToolCall{
			{ID: "c2", Name: "propose_plan", Arguments: llmtest.Text(`{"plan":` + quote(plan) + `}`)},
			{ID: "c3", Name: "read_file", Arguments: llmtest.Text(`{"path":"a.txt"}`)},
		}},
	}}, approval.Plan, map[string]string{"a.txt": "a"}, nil)
	out, err := h.sess.Run(t.Context(), "add hello.txt")
	if err != nil {
		t.Fatal(err)
	}
	offered := requestTools(t, h.srv, 0)
	for _, w := range []string{"write_file", "apply_patch", "bash"} {
		if slices.Contains(offered, w) {
			t.Errorf("plan mode offered %s: %v", w, offered)
		}
	}
	for _, r := range []string{"read_file", "grep", "propose_plan", "web_fetch"} {
		if !slices.Contains(offered, r) {
			t.Errorf("plan mode did not offer %s: %v", r, offered)
		}
	}
	if res := h.toolResult("c1"); !strings.Contains(res, "tool_not_allowed") {
		t.Errorf("forged write_file: %s", res)
	}
	if _, err := os.Stat(filepath.Join(h.root, "hello.txt")); err == nil {
		t.Error("plan mode wrote a file")
	}
	if out.Reason != protocol.StopCompleted || out.Plan == nil || out.Plan.Plan != plan || out.Plan.CallID != "c2" {
		t.Fatalf("turn ended %s with plan %+v", out.Reason, out.Plan)
	}
	if res := h.toolResult("c3"); !strings.Contains(res, "not_run") {
		t.Errorf("a call after propose_plan ran: %s", res)
	}
}

// Outside plan mode propose_plan is neither offered nor run.
func TestProposePlanOnlyInPlanMode(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "propose_plan", `{"plan":"x"}`), text("ok"),
	}}, approval.Safe, nil, nil)
	out, _ := h.sess.Run(t.Context(), "go")
	if slices.Contains(requestTools(t, h.srv, 0), "propose_plan") {
		t.Error("safe mode offered propose_plan")
	}
	if out.Plan != nil || !strings.Contains(h.toolResult("c1"), "tool_not_allowed") {
		t.Errorf("propose_plan ran outside plan mode: %+v", out.Plan)
	}
}

// Approving a plan switches the mode and starts the next turn with the
// plan: the model gets the writing tools back and the plan in its request.
func TestAnApprovedPlanStartsTheNextTurnInTheChosenMode(t *testing.T) {
	plan := "1. Write hello.txt saying hi"
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "propose_plan", `{"plan":`+quote(plan)+`}`),
		call("c2", "write_file", `{"path":"hello.txt","content":"hi"}`),
		text("Done."),
	}}, approval.Plan, nil, nil)
	out, err := h.sess.Run(t.Context(), "add hello.txt")
	if err != nil || out.Plan == nil {
		t.Fatalf("no plan: %v %+v", err, out)
	}
	h.mu.Lock()
	h.mode = approval.Auto
	h.mu.Unlock()
	if r := h.run(PlanApprovedPrompt(out.Plan.Plan, approval.Auto)); r != protocol.StopCompleted {
		t.Fatalf("approved turn: %s", r)
	}
	offered := requestTools(t, h.srv, 1)
	if !slices.Contains(offered, "write_file") || slices.Contains(offered, "propose_plan") {
		t.Errorf("after approval the model was offered %v", offered)
	}
	body, _ := h.srv.ChatRequest(1)
	if !strings.Contains(string(body), "Write hello.txt saying hi") || !strings.Contains(string(body), "I approve your plan") {
		t.Errorf("the approved turn's request lacks the plan: %s", body)
	}
	if b, err := os.ReadFile(filepath.Join(h.root, "hello.txt")); err != nil || string(b) != "hi" {
		t.Errorf("hello.txt = %q, %v", b, err)
	}
}

func quote(s string) string {
	b := strings.Builder{}
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}
