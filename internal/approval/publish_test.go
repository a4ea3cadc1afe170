package approval_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

type eventLog struct {
	mu  sync.Mutex
	evs []protocol.Event
}

func (l *eventLog) Publish(e protocol.Event) { l.mu.Lock(); l.evs = append(l.evs, e); l.mu.Unlock() }

func (l *eventLog) types() []protocol.EventType {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []protocol.EventType
	for _, e := range l.evs {
		out = append(out, e.Type)
	}
	return out
}

// answering is a gateway that only answers: it publishes nothing and never
// announces the request.
type answering struct{ d protocol.Decision }

func (a answering) Ask(context.Context, approval.Request) (protocol.Decision, error) { return a.d, nil }

// The gate alone publishes a request and its one resolution, whatever the
// gateway does: one that only answers still yields approval.requested then
// approval.resolved, in the session, with the decision it gave.
func TestTheGateAlonePublishesApprovals(t *testing.T) {
	for _, d := range []protocol.Decision{{Kind: protocol.DecisionOnce}, {Kind: protocol.DecisionReject, Note: "no"}} {
		var log eventLog
		g := approval.New(approval.Config{Mode: func() approval.Mode { return approval.Manual }, Gateway: answering{d},
			Session: "s1", Events: &log})
		tool := notifyTool{}
		h := tools.Chain(tool, tools.Plan(nil), g.Middleware)
		if _, err := h(context.Background(), tools.Call{ID: "c1", Name: "notify", Args: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
		got := log.types()
		if len(got) != 2 || got[0] != protocol.ApprovalRequested || got[1] != protocol.ApprovalResolved {
			t.Fatalf("%s: events %v", d.Kind, got)
		}
		req := log.evs[0].Payload.(protocol.ApprovalRequestedPayload)
		res := log.evs[1].Payload.(protocol.ApprovalResolvedPayload)
		if log.evs[0].SessionID != "s1" || req.CallID != "c1" || res.ApprovalID != req.ApprovalID || res.Decision.Kind != d.Kind {
			t.Errorf("%s: requested %+v, resolved %+v", d.Kind, req, res)
		}
	}
}

type notifyTool struct{}

func (notifyTool) Spec() tools.Spec { return tools.Spec{Name: "notify"} }
func (notifyTool) Run(context.Context, json.RawMessage) (tools.Result, error) {
	return tools.OK(map[string]bool{"sent": true})
}
