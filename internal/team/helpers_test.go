package team

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/agent"
	"gatehouse/internal/agents"
	"gatehouse/internal/approval"
	"gatehouse/internal/budget"
	"gatehouse/internal/events"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/proc"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
	"gatehouse/internal/runtime/runtimetest"
	"gatehouse/internal/session"
	"gatehouse/internal/settings"
)

// host is a window-like host of one lead session with a team: the
// dialog gateway, the events told, and one fake model server per member
// (the lead's, and each teammate's: its agent definition names a model,
// and the model of that name is its own server), so each member's script
// runs in its own order whatever the others do.
type host struct {
	t    *testing.T
	lead *llmtest.Server
	srv  map[string]*llmtest.Server // by member name
	sess *runtime.Session
	m    *agents.Manager
	team *Team

	mu     sync.Mutex
	mode   approval.Mode
	events []protocol.Event
}

type setup struct {
	// members are the teammates' scripts by name; each gets an agent
	// definition of its name (model: its own server).
	members map[string]llmtest.Script
	tree    map[string]string
	lim     settings.Teams
	budget  *budget.Options
	// readOnly members' definitions list only the reading tools.
	readOnly map[string]bool
	// off leaves teams off.
	off bool
	// root, log and past: a saved session (past: resumed, its team with it).
	root string
	log  *session.Log
	past *session.Loaded
	// procs are the lead's process options (its sandbox).
	procs proc.Options
	// standing are the user's standing rules.
	standing []approval.StandingRule
}

func start(t *testing.T, lead llmtest.Script, mode approval.Mode, su setup) *host {
	t.Helper()
	ws := runtimetest.Workspace(t, su.root, su.tree)
	h := &host{t: t, lead: llmtest.Start(t, lead), srv: map[string]*llmtest.Server{}, mode: mode}
	defs := agents.Builtins()
	for name, sc := range su.members {
		h.srv[name] = llmtest.Start(t, sc)
		d := agents.Definition{Name: name, Model: name, Source: "test", Description: "test agent " + name}
		if su.readOnly[name] {
			d.Tools = []string{"read_file", "list_dir", "glob", "grep"}
		}
		defs = append(defs, d)
	}
	models := func(name string) (agent.Model, error) { return runtimetest.Client(t, h.srv[name]), nil }
	var err error
	h.sess, err = runtime.New(runtime.Options{
		Workspace: ws, Model: runtimetest.Client(t, h.lead), Sink: events.SinkFunc(h.emit), NoWatch: true,
		Mode:    func() approval.Mode { h.mu.Lock(); defer h.mu.Unlock(); return h.mode },
		Gateway: func(id string, pub approval.Publisher) approval.Gateway { return approval.NewGUI(id) },
		Budget:  su.budget, Log: su.log, Past: su.past, Processes: su.procs,
		Standing: func() []approval.StandingRule { return su.standing },
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.sess.Close)
	if h.m, err = agents.Attach(h.sess, agents.Config{Definitions: defs, Models: models}); err != nil {
		t.Fatal(err)
	}
	switch {
	case su.past != nil:
		if h.team, err = Resume(h.sess, h.m, su.lim, su.past); err != nil {
			t.Fatal(err)
		}
	case !su.off:
		if h.team, err = Enable(h.sess, h.m, su.lim); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

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

// member is teammate name as the team reports it.
func (h *host) member(name string) protocol.Teammate {
	for _, m := range h.team.State().Teammates {
		if m.Name == name {
			return m
		}
	}
	return protocol.Teammate{}
}

// waitState waits for teammate name to be in state s.
func (h *host) waitState(name string, s protocol.TeammateState) protocol.Teammate {
	h.t.Helper()
	eventually(h.t, name+" "+string(s), func() bool { return h.member(name).State == s })
	return h.member(name)
}

// requests counts the model requests member name's server got.
func (h *host) requests(name string) int {
	n := 0
	for {
		if _, ok := h.server(name).ChatRequest(n); !ok {
			return n
		}
		n++
	}
}

func (h *host) server(name string) *llmtest.Server {
	if name == protocol.TeamLead {
		return h.lead
	}
	return h.srv[name]
}

// request is the body of model request i of member name.
func (h *host) request(name string, i int) string {
	h.t.Helper()
	b, ok := h.server(name).ChatRequest(i)
	if !ok {
		h.t.Fatalf("no model request %d of %s", i, name)
	}
	return string(b)
}

// results are the results of the calls of tool told by member name
// ("lead": the lead's own), in order.
func (h *host) results(name, tool string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, e := range h.events {
		p, ok := e.Payload.(protocol.ToolFinishedPayload)
		if !ok || p.Tool != tool {
			continue
		}
		if (name == protocol.TeamLead && e.ParentCallID == "") || (name != protocol.TeamLead && e.Teammate == name && e.Agent == name) {
			out = append(out, string(p.Result))
		}
	}
	return out
}

// told lists the team events of type typ.
func (h *host) told(typ protocol.EventType) []protocol.Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []protocol.Event
	for _, e := range h.events {
		if e.Type == typ {
			out = append(out, e)
		}
	}
	return out
}

func call(id, name, args string) llmtest.Response {
	return llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: id, Name: name, Arguments: llmtest.Text(args)}}}
}

func calls(cs ...llmtest.ToolCall) llmtest.Response { return llmtest.Response{ToolCalls: cs} }

func tc(id, name, args string) llmtest.ToolCall {
	return llmtest.ToolCall{ID: id, Name: name, Arguments: llmtest.Text(args)}
}

func text(s string) llmtest.Response { return llmtest.Response{Text: llmtest.Text(s)} }

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

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

func contains(s, sub string) bool { return strings.Contains(s, sub) }
