package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// askingGateway records each request and answers with the next decision.
type askingGateway struct {
	mu      sync.Mutex
	asked   []approval.Request
	answers []protocol.DecisionKind
}

func (g *askingGateway) Ask(_ context.Context, r approval.Request) (protocol.Decision, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.asked = append(g.asked, r)
	k := g.answers[0]
	g.answers = g.answers[1:]
	return protocol.Decision{Kind: k}, nil
}

// route builds a router of the providers' tools behind the gate in mode.
func route(t *testing.T, m *Manager, mode approval.Mode, gw approval.Gateway) *tools.Router {
	t.Helper()
	var ts []tools.Tool
	for _, p := range m.Providers() {
		ts = append(ts, p.Tools()...)
	}
	reg, err := tools.NewRegistry(ts...)
	if err != nil {
		t.Fatal(err)
	}
	g := approval.New(approval.Config{Mode: func() approval.Mode { return mode }, Gateway: gw})
	return tools.NewRouter(reg, tools.Policy{}, tools.OutputCap(200_000), g.Middleware)
}

func TestEveryCallPassesTheGateAndASessionRuleCoversServerAndTool(t *testing.T) {
	e, _ := fakeEntry(t, "fake", "normal")
	m := newTestManager(t, Options{}, e)
	gw := &askingGateway{answers: []protocol.DecisionKind{protocol.DecisionSession, protocol.DecisionOnce}}
	r := route(t, m, approval.Safe, gw)
	ctx := context.Background()
	long := strings.Repeat("a", 1000)
	res, err := r.Run(ctx, tools.Call{ID: "c1", Name: "mcp__fake__echo", Args: json.RawMessage(`{"text":"` + long + `"}`)})
	if err != nil || res.IsError {
		t.Fatalf("echo: %v %s", err, res.Output)
	}
	if len(gw.asked) != 1 {
		t.Fatalf("asked %d times, want 1", len(gw.asked))
	}
	p := gw.asked[0].Preview
	if p.Mcp == nil || p.Mcp.Server != "fake" || p.Mcp.Tool != "echo" || p.Mcp.Description != "Echoes its text." {
		t.Fatalf("preview does not name server, tool and description: %+v", p.Mcp)
	}
	if !strings.Contains(p.ArgsText, "… (700 more characters)") || !strings.Contains(p.ArgsText, "\n  \"text\": ") {
		t.Errorf("arguments are not formatted and folded: %s", p.ArgsText)
	}
	if rule := gw.asked[0].Rule; rule == nil || rule.Tool != "mcp__fake__echo" {
		t.Fatalf("proposed rule %+v", rule)
	}
	// The session rule covers this server's echo, whatever the arguments...
	if res, _ := r.Run(ctx, tools.Call{ID: "c2", Name: "mcp__fake__echo", Args: json.RawMessage(`{"text":"again"}`)}); res.IsError || len(gw.asked) != 1 {
		t.Fatalf("second echo asked again (%d) or failed: %s", len(gw.asked), res.Output)
	}
	// ...and no other tool of it.
	if _, err := r.Run(ctx, tools.Call{ID: "c3", Name: "mcp__fake__picture", Args: json.RawMessage(`{}`)}); err != nil || len(gw.asked) != 2 {
		t.Fatalf("picture did not ask (%d asks): %v", len(gw.asked), err)
	}
}

func TestReadOnlyHintRunsUnaskedInSafeModeOnlyWhenTrusted(t *testing.T) {
	e, _ := fakeEntry(t, "fake", "normal")
	m := newTestManager(t, Options{}, e)
	gw := &askingGateway{answers: []protocol.DecisionKind{protocol.DecisionReject}}
	res, err := route(t, m, approval.Safe, gw).Run(context.Background(), tools.Call{ID: "c1", Name: "mcp__fake__peek", Args: json.RawMessage(`{}`)})
	if err != nil || !res.Rejected || len(gw.asked) != 1 {
		t.Fatalf("untrusted hint: asked %d, result %s", len(gw.asked), res.Output)
	}

	e.Config.TrustReadOnlyHints = true
	trusted := newTestManager(t, Options{}, e)
	gw = &askingGateway{}
	res, err = route(t, trusted, approval.Safe, gw).Run(context.Background(), tools.Call{ID: "c2", Name: "mcp__fake__peek", Args: json.RawMessage(`{}`)})
	if err != nil || res.IsError || len(gw.asked) != 0 {
		t.Fatalf("trusted hint: asked %d, result %s", len(gw.asked), res.Output)
	}
}
