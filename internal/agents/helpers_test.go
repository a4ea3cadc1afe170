package agents

import (
	"context"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/agent"
	"gatehouse/internal/approval"
	"gatehouse/internal/events"
	"gatehouse/internal/hooks"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/runtime/runtimetest"
	"gatehouse/internal/session"
	"gatehouse/internal/tools"
	"gatehouse/internal/trust"
)

// host is a window-like host of one session with agents attached: the
// dialog gateway, the events shown, the fake model servers (main, and
// "other" for definitions naming model "other").
type host struct {
	t     *testing.T
	root  string
	srv   *llmtest.Server
	other *llmtest.Server
	sess  *runtime.Session
	m     *Manager

	mu     sync.Mutex
	mode   approval.Mode
	events []protocol.Event
}

type setup struct {
	tree  map[string]string
	other *llmtest.Script
	defs  []Definition
	log   *session.Log
	past  *session.Loaded
	root  string
	// providers join the parent's surface (a skills catalog).
	providers []tools.Provider
	// hooks are the session's hooks; hookTrust where a workspace's are
	// trusted (Config.HookTrust).
	hooks     *hooks.Runner
	hookTrust *trust.Store
}

func start(t *testing.T, script llmtest.Script, mode approval.Mode, su setup) *host {
	t.Helper()
	ws := runtimetest.Workspace(t, su.root, su.tree)
	h := &host{t: t, root: ws.Root(), srv: llmtest.Start(t, script), mode: mode}
	cfg := Config{Definitions: append(Builtins(), su.defs...), HookTrust: su.hookTrust}
	if su.other != nil {
		h.other = llmtest.Start(t, *su.other)
		other := client(t, h.other)
		cfg.Models = func(name string) (agent.Model, error) { return other, nil }
	}
	var err error
	h.sess, err = runtime.New(runtime.Options{
		Workspace: ws, Model: client(t, h.srv), Sink: events.SinkFunc(h.emit), NoWatch: true,
		Mode:    func() approval.Mode { h.mu.Lock(); defer h.mu.Unlock(); return h.mode },
		Gateway: func(id string, pub approval.Publisher) approval.Gateway { return approval.NewGUI(id) },
		Log:     su.log, Past: su.past, Providers: su.providers, Hooks: su.hooks,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.sess.Close)
	if h.m, err = Attach(h.sess, cfg); err != nil {
		t.Fatal(err)
	}
	h.m.Restore(su.past)
	return h
}

// client speaks to the fake model server srv.
var client = runtimetest.Client

func (h *host) emit(e protocol.Event) {
	h.mu.Lock()
	h.events = append(h.events, e)
	h.mu.Unlock()
}

func (h *host) gui() *approval.GUI { return h.sess.Gateway().(*approval.GUI) }

func (h *host) run(prompt string) agent.Outcome {
	h.t.Helper()
	out, err := h.sess.Run(context.Background(), prompt)
	if err != nil {
		h.t.Fatal(err)
	}
	return out
}

// approve answers the next request, which must be tool's, once.
func (h *host) approve(tool string) {
	h.t.Helper()
	req := h.waitApproval()
	if req.Tool != tool {
		h.t.Fatalf("the next request is %s's, want %s's", req.Tool, tool)
	}
	if err := h.gui().Resolve(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce}); err != nil {
		h.t.Fatal(err)
	}
}

func (h *host) waitApproval() approval.Request {
	h.t.Helper()
	return runtimetest.WaitApproval(h.t, h.gui)
}

// result is the output of the parent's call id.
func (h *host) result(id string) string {
	h.t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, e := range h.events {
		if p, ok := e.Payload.(protocol.ToolFinishedPayload); ok && p.CallID == id && e.ParentCallID == "" {
			return string(p.Result)
		}
	}
	h.t.Fatalf("no result for call %s", id)
	return ""
}

// childCalls lists "agent › tool" for each tool.finished of a child run by
// the parent's call parent, in order.
func (h *host) childCalls(parent string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.events {
		if p, ok := e.Payload.(protocol.ToolFinishedPayload); ok && e.ParentCallID == parent {
			out = append(out, e.Agent+" › "+p.Tool)
		}
	}
	return out
}

// requestTools names the tools model request i of srv offered, sorted.
var requestTools = runtimetest.RequestTools

// request is the body of model request i of srv.
func request(t *testing.T, srv *llmtest.Server, i int) []byte {
	t.Helper()
	b, ok := srv.ChatRequest(i)
	if !ok {
		t.Fatalf("no model request %d", i)
	}
	return b
}

func call(id, name, args string) llmtest.Response {
	return llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: id, Name: name, Arguments: llmtest.Text(args)}}}
}

func text(s string) llmtest.Response { return llmtest.Response{Text: llmtest.Text(s)} }

func eventually(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
