package runtime

import (
	"context"
	"encoding/json"
	"os"
	"sync"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/events"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime/runtimetest"
	"gatehouse/internal/tools"
)

// host is a one-session host as a test drives it: the window's dialog
// gateway (answered through gui), the events it was shown, a mode it
// switches.
type host struct {
	t    *testing.T
	root string
	srv  *llmtest.Server
	sess *Session

	mu     sync.Mutex
	mode   approval.Mode
	events []protocol.Event
}

// start opens a session of a workspace holding tree, against the fake model
// server playing script; change adjusts the options first.
func start(t *testing.T, script llmtest.Script, mode approval.Mode, tree map[string]string, change func(*Options)) *host {
	t.Helper()
	ws := runtimetest.Workspace(t, "", tree)
	h := &host{t: t, root: ws.Root(), srv: llmtest.Start(t, script), mode: mode}
	o := Options{
		Workspace: ws, Model: runtimetest.Client(t, h.srv), Sink: events.SinkFunc(h.emit),
		Mode:    func() approval.Mode { h.mu.Lock(); defer h.mu.Unlock(); return h.mode },
		Gateway: func(id string, pub approval.Publisher) approval.Gateway { return approval.NewGUI(id) },
	}
	if change != nil {
		change(&o)
	}
	var err error
	if h.sess, err = New(o); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.sess.Close)
	return h
}

func (h *host) emit(e protocol.Event) {
	h.mu.Lock()
	h.events = append(h.events, e)
	h.mu.Unlock()
}

func (h *host) gui() *approval.GUI { return h.sess.Gateway().(*approval.GUI) }

// run runs one turn and returns how it stopped.
func (h *host) run(prompt string) protocol.StopReason {
	h.t.Helper()
	out, err := h.sess.Run(context.Background(), prompt)
	if err != nil {
		h.t.Fatal(err)
	}
	return out.Reason
}

// waitApproval waits for the session's dialog to ask.
func (h *host) waitApproval() approval.Request {
	h.t.Helper()
	return runtimetest.WaitApproval(h.t, h.gui)
}

// toolResult is the output of call id as the turn's events carried it.
func (h *host) toolResult(id string) string {
	h.t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, e := range h.events {
		if p, ok := e.Payload.(protocol.ToolFinishedPayload); ok && p.CallID == id {
			return string(p.Result)
		}
	}
	h.t.Fatalf("no result for call %s", id)
	return ""
}

// requestTools names the tools model request i of srv offered, sorted.
var requestTools = runtimetest.RequestTools

// provider is a Go caller's provider whose list can change.
type provider struct {
	name string
	mu   sync.Mutex
	ts   []tools.Tool
}

func (p *provider) Name() string { return p.name }
func (p *provider) Tools() []tools.Tool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]tools.Tool(nil), p.ts...)
}
func (p *provider) set(ts ...tools.Tool) { p.mu.Lock(); p.ts = ts; p.mu.Unlock() }

// replyTool answers every call with reply.
type replyTool struct{ name, reply string }

func (r replyTool) Spec() tools.Spec {
	return tools.Spec{Name: r.name, Description: "answers " + r.reply, Parameters: json.RawMessage(`{"type":"object"}`)}
}
func (r replyTool) Run(context.Context, json.RawMessage) (tools.Result, error) {
	return tools.OK(r.reply)
}

func call(id, name, args string) llmtest.Response {
	return llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: id, Name: name, Arguments: llmtest.Text(args)}}}
}

func text(s string) llmtest.Response { return llmtest.Response{Text: llmtest.Text(s)} }

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o644) }
