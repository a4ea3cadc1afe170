//go:build linux

package approval_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// slowRepreview is a request whose dry run blocks until release is closed,
// as a re-preview on a slow disk does.
func slowRepreview(id string, release <-chan struct{}, started chan<- struct{}) approval.Request {
	return approval.Request{
		ApprovalID: id, CallID: "c-" + id, Tool: "write_file",
		Preview: protocol.Preview{Summary: "old"},
		Repreview: func() (protocol.Preview, *protocol.Rule, error) {
			started <- struct{}{}
			<-release
			return protocol.Preview{Summary: "fresh"}, nil, nil
		},
	}
}

func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { f(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s waited for another request's re-preview (the dry run holds the gateway's lock)", what)
	}
}

// TestRepreviewRunsOutsideTheGatewaysLock: while one request's dry run reads
// a slow disk, the gateway answers, marks and lists the others; the request
// being refreshed takes no approval until its fresh preview stands, and a
// path that changed during the dry run stays marked stale.
func TestRepreviewRunsOutsideTheGatewaysLock(t *testing.T) {
	g := approval.NewGUI("s1")
	release, started := make(chan struct{}), make(chan struct{}, 1)
	answers := map[string]chan protocol.Decision{}
	ask := func(req approval.Request) {
		ch := make(chan protocol.Decision, 1)
		answers[req.ApprovalID] = ch
		go func() {
			d, _ := g.Ask(context.Background(), req)
			ch <- d
		}()
	}
	ask(slowRepreview("a", release, started))
	ask(approval.Request{ApprovalID: "b", CallID: "c-b", Tool: "bash", Preview: protocol.Preview{Summary: "b"}})
	waitFor(t, "both requests", func() bool { return len(g.Pending()) == 2 })

	refreshed := make(chan error, 1)
	go func() { refreshed <- g.Repreview("a") }()
	<-started
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()

	within(t, "answering b", func() {
		if err := g.Resolve("b", protocol.Decision{Kind: protocol.DecisionReject}); err != nil {
			t.Error(err)
		}
	})
	within(t, "listing", func() { g.Pending() })
	within(t, "approving a", func() {
		err := g.Resolve("a", protocol.Decision{Kind: protocol.DecisionOnce})
		if err == nil || !strings.Contains(err.Error(), "is being refreshed; answer the fresh one") {
			t.Errorf("approving a request whose dry run is under way: %v", err)
		}
	})
	within(t, "marking a stale", func() { g.MarkStale("a", []string{"a.txt"}) })
	if err := g.Repreview("a"); err == nil || !strings.Contains(err.Error(), "being refreshed already") {
		t.Fatalf("a second re-preview meanwhile: %v", err)
	}

	close(release)
	if err := <-refreshed; err != nil {
		t.Fatal(err)
	}
	if p := g.Pending(); len(p) != 1 || p[0].Preview.Summary != "fresh" {
		t.Fatalf("pending after the re-preview: %+v", p)
	}
	// a.txt changed during the dry run: the fresh preview may predate it.
	if err := g.Resolve("a", protocol.Decision{Kind: protocol.DecisionOnce}); err == nil {
		t.Fatal("approved although a.txt changed during the dry run")
	}
	// Refreshed again (its dry run is quick now), it is approved.
	go func() { <-started }()
	if err := g.Repreview("a"); err != nil {
		t.Fatal(err)
	}
	if err := g.Resolve("a", protocol.Decision{Kind: protocol.DecisionOnce}); err != nil {
		t.Fatal(err)
	}
	if d := <-answers["a"]; d.Kind != protocol.DecisionOnce {
		t.Fatalf("a answered %+v", d)
	}
	if d := <-answers["b"]; d.Kind != protocol.DecisionReject {
		t.Fatalf("b answered %+v", d)
	}
}

// TestRejectDuringRepreview: a reject is taken while the dry run is under
// way; the re-preview then fails instead of refreshing an answered request.
func TestRejectDuringRepreview(t *testing.T) {
	g := approval.NewGUI("s1")
	release, started := make(chan struct{}), make(chan struct{}, 1)
	answer := make(chan protocol.Decision, 1)
	go func() {
		d, _ := g.Ask(context.Background(), slowRepreview("a", release, started))
		answer <- d
	}()
	waitFor(t, "the request", func() bool { return len(g.Pending()) == 1 })
	refreshed := make(chan error, 1)
	go func() { refreshed <- g.Repreview("a") }()
	<-started
	within(t, "rejecting a", func() {
		if err := g.Resolve("a", protocol.Decision{Kind: protocol.DecisionReject, Note: "no"}); err != nil {
			t.Error(err)
		}
	})
	close(release)
	if d := <-answer; d.Kind != protocol.DecisionReject {
		t.Fatalf("answer %+v", d)
	}
	if err := <-refreshed; err == nil || !strings.Contains(err.Error(), "answered while its preview was refreshed") {
		t.Fatalf("re-preview of a request answered meanwhile: %v", err)
	}
}

// slowTool is a gated tool whose dry runs after the first block until
// release is closed, as a re-preview on a slow disk does.
type slowTool struct {
	prepares atomic.Int32
	started  chan struct{}
	release  chan struct{}
}

func (*slowTool) Spec() tools.Spec {
	return tools.Spec{Name: "slow", Parameters: json.RawMessage(`{"type":"object"}`)}
}

func (*slowTool) Run(context.Context, json.RawMessage) (tools.Result, error) {
	return tools.OK(map[string]any{"ran": true})
}

func (s *slowTool) Prepare(context.Context, json.RawMessage) (*tools.Prepared, tools.Result, bool) {
	if s.prepares.Add(1) > 1 {
		s.started <- struct{}{}
		<-s.release
	}
	return &tools.Prepared{ArgsText: "slow"}, tools.Result{}, true
}

// TestNoPreviewAfterTheResolution: the user rejects a request while its
// re-preview's dry run is under way. The gate publishes approval.resolved,
// and the dry run, once it ends, publishes no approval.requested after it
// (the page would show a dialog for an answered request), and the call
// does not run.
func TestNoPreviewAfterTheResolution(t *testing.T) {
	h := newHarness(t, approval.Manual, nil)
	tool := &slowTool{started: make(chan struct{}, 1), release: make(chan struct{})}
	ran := false
	run := h.gate.Middleware(tool, func(context.Context, tools.Call) (tools.Result, error) {
		ran = true
		return tools.OK(nil)
	})
	done := make(chan tools.Result, 1)
	go func() {
		res, _ := run(context.Background(), tools.Call{ID: "c1", Name: "slow", Args: json.RawMessage(`{}`)})
		done <- res
	}()
	waitFor(t, "the request", func() bool { return len(h.requests()) == 1 })
	id := h.requests()[0].ApprovalID
	refreshed := make(chan error, 1)
	go func() { refreshed <- h.gui.Repreview(id) }()
	<-tool.started
	within(t, "rejecting", func() {
		if err := h.gui.Resolve(id, protocol.Decision{Kind: protocol.DecisionReject, Note: "no"}); err != nil {
			t.Error(err)
		}
	})
	if res := <-done; !res.Rejected || ran {
		t.Fatalf("result %s, ran %v", res.Output, ran)
	}
	close(tool.release)
	if err := <-refreshed; err == nil {
		t.Fatal("the re-preview of a rejected request succeeded")
	}
	var last protocol.EventType
	for _, e := range h.allEvents() {
		if e.Type == protocol.ApprovalRequested || e.Type == protocol.ApprovalResolved {
			last = e.Type
		}
	}
	if last != protocol.ApprovalResolved {
		t.Fatalf("the last approval event is %s: a preview came after the resolution", last)
	}
}
