package agents

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// The model delegates to explore; the child reads two files and answers;
// the answer is the delegate call's result, the child's calls reached the
// host's stream with the parent's call id, and the child was offered only
// explore's tools.
func TestDelegateRunsChildToCompletion(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "delegate_explore", `{"task":"what do a and b say?"}`),
		call("k1", "read_file", `{"path":"a.txt"}`),
		call("k2", "read_file", `{"path":"b.txt"}`),
		text("a says alpha, b says beta"),
		text("the explorer says alpha and beta"),
	}}, approval.Safe, setup{tree: map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n"}})
	if out := h.run("explore"); out.Reason != protocol.StopCompleted {
		t.Fatalf("turn: %s %v", out.Reason, out.Err)
	}
	if res := h.result("c1"); !strings.Contains(res, "a says alpha, b says beta") || strings.Contains(res, "stopReason") {
		t.Errorf("delegate result %s", res)
	}
	if got := h.childCalls("c1"); !slices.Equal(got, []string{"explore › read_file", "explore › read_file"}) {
		t.Errorf("child calls seen %v", got)
	}
	if got := requestTools(t, h.srv, 1); !slices.Equal(got, []string{"glob", "grep", "list_dir", "read_file"}) {
		t.Errorf("the explorer was offered %v", got)
	}
	if main := requestTools(t, h.srv, 0); !slices.Contains(main, "delegate_general") || !slices.Contains(main, "subagent_start") {
		t.Errorf("the main agent was offered %v", main)
	}
	if body := string(request(t, h.srv, 4)); !strings.Contains(body, "a says alpha, b says beta") {
		t.Error("the parent's next request lacks the child's answer")
	}
	ct := h.sess.Snapshot().Children["c1"]
	var tools []string
	for _, it := range ct.Items {
		if it.Kind == protocol.ItemTool {
			tools = append(tools, it.ID)
		}
	}
	if ct.Agent != "explore" || !slices.Equal(tools, []string{"k1", "k2"}) || ct.Items[len(ct.Items)-1].Reason != protocol.StopCompleted {
		t.Errorf("the snapshot's child transcript: agent %q, tools %v", ct.Agent, tools)
	}
	if cs := h.m.Children(); len(cs) != 1 || cs[0].Status != "completed" || cs[0].ToolCalls != 2 || cs[0].ParentCallID != "c1" {
		t.Errorf("children %+v", cs)
	}
}

// A read-only child calling write_file by name is refused by the policy,
// and nothing is written.
func TestReadOnlyChildCannotWrite(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "delegate_explore", `{"task":"write x"}`),
		call("k1", "write_file", `{"path":"x.txt","content":"no"}`),
		text("I may not write"),
		text("ok"),
	}}, approval.Auto, setup{})
	h.run("go")
	h.mu.Lock()
	var res string
	for _, e := range h.events {
		if p, ok := e.Payload.(protocol.ToolFinishedPayload); ok && p.CallID == "k1" {
			res = string(p.Result)
		}
	}
	h.mu.Unlock()
	if !strings.Contains(res, "not allowed in this session") {
		t.Errorf("write_file in the explorer: %s", res)
	}
	if _, err := os.Stat(filepath.Join(h.root, "x.txt")); err == nil {
		t.Error("the read-only child wrote a file")
	}
}

// A child's write asks the session's gateway, labelled with the agent; a
// session rule made from the child's dialog covers the parent's same call,
// and says which agent it came from.
func TestChildApprovalIsLabelledAndRulesBelongToTheSession(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "delegate_general", `{"task":"write x"}`),
		call("k1", "write_file", `{"path":"x.txt","content":"one"}`),
		text("written"),
		call("c2", "write_file", `{"path":"x.txt","content":"one"}`),
		text("done"),
	}}, approval.Safe, setup{})
	done := make(chan protocol.StopReason, 1)
	go func() { done <- h.run("go").Reason }()
	// Starting general, who can write, asks itself (in the session's name).
	if req := h.waitApproval(); req.Tool != "delegate_general" || req.Agent != "" {
		t.Fatalf("first request %+v", req)
	} else if err := h.gui().Resolve(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce}); err != nil {
		t.Fatal(err)
	}
	req := h.waitApproval()
	if req.Agent != "general" || req.Tool != "write_file" || req.Payload().Agent != "general" {
		t.Fatalf("request %+v", req)
	}
	if err := h.gui().Resolve(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionSession}); err != nil {
		t.Fatal(err)
	}
	if got := <-done; got != protocol.StopCompleted {
		t.Fatalf("turn: %s (the parent's same write should run under the child's rule)", got)
	}
	if b, _ := os.ReadFile(filepath.Join(h.root, "x.txt")); string(b) != "one" {
		t.Errorf("x.txt %q", b)
	}
	rules := h.sess.Rules().List()
	if len(rules) != 1 || rules[0].Agent != "general" {
		t.Errorf("rules %+v", rules)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, e := range h.events {
		if p, ok := e.Payload.(protocol.ApprovalRequestedPayload); ok && (p.Agent != "general" && p.Tool != "delegate_general" || e.SessionID != h.sess.ID()) {
			t.Errorf("approval.requested %+v in session %s", p, e.SessionID)
		}
	}
}

// Rejecting a foreground child's call stops the child and the parent's
// turn as blocked_by_approval; the note reaches the model with the next
// turn.
func TestRejectionStopsChildAndParent(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "delegate_general", `{"task":"write x"}`),
		call("k1", "write_file", `{"path":"x.txt","content":"one"}`),
		text("next turn"),
	}}, approval.Safe, setup{})
	done := make(chan protocol.StopReason, 1)
	go func() { done <- h.run("go").Reason }()
	h.approve("delegate_general") // general can write: starting it asks
	req := h.waitApproval()
	if err := h.gui().Resolve(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionReject, Note: "not that file"}); err != nil {
		t.Fatal(err)
	}
	if got := <-done; got != protocol.StopBlockedByApproval {
		t.Fatalf("parent turn: %s", got)
	}
	if cs := h.m.Children(); len(cs) != 1 || cs[0].Status != string(protocol.StopBlockedByApproval) {
		t.Errorf("children %+v", cs)
	}
	h.run("why?")
	if body := string(request(t, h.srv, 2)); !strings.Contains(body, "not that file") || !strings.Contains(body, "general") {
		t.Errorf("the next turn's request lacks the rejection: %.600s", body)
	}
}

// A child may delegate once more; its child (depth 2) is offered no agent
// tools.
func TestDepthLimit(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "delegate_general", `{"task":"go deeper"}`),
		call("k1", "delegate_general", `{"task":"deeper still"}`),
		text("bottom"),
		text("middle"),
		text("top"),
	}}, approval.Auto, setup{})
	if out := h.run("go"); out.Reason != protocol.StopCompleted {
		t.Fatalf("turn %s", out.Reason)
	}
	if got := requestTools(t, h.srv, 1); !slices.Contains(got, "delegate_explore") {
		t.Errorf("depth 1 offered %v", got)
	}
	for _, n := range requestTools(t, h.srv, 2) {
		if strings.HasPrefix(n, DelegatePrefix) || strings.HasPrefix(n, "subagent_") {
			t.Errorf("depth 2 was offered %s", n)
		}
	}
	if got := h.childCalls("c1"); !slices.Equal(got, []string{"general › delegate_general"}) {
		t.Errorf("the grandchild's events should carry its own parent call: %v", got)
	}
	h.mu.Lock()
	var deep bool
	for _, e := range h.events {
		deep = deep || e.ParentCallID == "k1" && e.Agent == "general › general"
	}
	h.mu.Unlock()
	if !deep {
		t.Error("no event of the grandchild labelled general › general under k1")
	}
	if res := h.result("c1"); !strings.Contains(res, "middle") {
		t.Errorf("result %s", res)
	}
}

// The parent's providers reach its children through the policy: general
// (every tool the parent has) sees a provider's tool, explore does not.
func TestChildrenGetTheParentsProviders(t *testing.T) {
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("c1", "delegate_general", `{"task":"ask the server"}`),
		call("k1", "mcp__srv__ping", `{}`),
		text("pong came back"),
		call("c2", "delegate_explore", `{"task":"look around"}`),
		text("nothing to see"),
		text("done"),
	}}, approval.Auto, setup{})
	if err := h.sess.AddProvider(staticProvider{}); err != nil {
		t.Fatal(err)
	}
	if out := h.run("go"); out.Reason != protocol.StopCompleted {
		t.Fatalf("turn %s", out.Reason)
	}
	if got := requestTools(t, h.srv, 1); !slices.Contains(got, "mcp__srv__ping") {
		t.Errorf("general was offered %v", got)
	}
	if res := h.result("c1"); !strings.Contains(res, "pong came back") {
		t.Errorf("general's answer %s", res)
	}
	if got := requestTools(t, h.srv, 4); slices.Contains(got, "mcp__srv__ping") {
		t.Errorf("explore was offered %v", got)
	}
}

type staticProvider struct{}

func (staticProvider) Name() string        { return "mcp server srv" }
func (staticProvider) Tools() []tools.Tool { return []tools.Tool{pingTool{}} }

type pingTool struct{}

func (pingTool) Spec() tools.Spec {
	return tools.Spec{Name: "mcp__srv__ping", Description: "ping", Parameters: json.RawMessage(`{"type":"object"}`)}
}
func (pingTool) Run(context.Context, json.RawMessage) (tools.Result, error) { return tools.OK("pong") }
