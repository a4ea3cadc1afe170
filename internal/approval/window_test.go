//go:build linux

package approval_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// waiting starts a write in h that asks, and returns its request once it
// waits, and a channel closed when the call has returned.
func waiting(t *testing.T, h *harness) (protocol.ApprovalRequestedPayload, <-chan struct{}) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.run(context.Background(), "write_file", `{"path":"a.txt","content":"x\n"}`)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for len(h.requests()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no approval.requested")
		}
		time.Sleep(time.Millisecond)
	}
	return h.requests()[0], done
}

// TestApprovalIDsNameTheirSessionAndTheWindowAnswersOnlyItsOwn: two
// sessions' first requests get different ids; a window that owns one
// session refuses, with an error that says so, an answer to the other's,
// which keeps waiting; a window that owns both (a session and its child)
// answers either.
func TestApprovalIDsNameTheirSessionAndTheWindowAnswersOnlyItsOwn(t *testing.T) {
	parent := newHarnessIn(t, "20261201-000000-aaaa0001", approval.Safe, nil)
	child := newHarnessIn(t, "20261201-000000-bbbb0002", approval.Safe, nil)
	reqP, doneP := waiting(t, parent)
	reqC, doneC := waiting(t, child)
	if reqP.ApprovalID == reqC.ApprovalID {
		t.Fatalf("both sessions' first requests are %s", reqP.ApprovalID)
	}
	if !strings.HasPrefix(reqP.ApprovalID, "approval-20261201-000000-aaaa0001-") {
		t.Fatalf("approval id %s does not name its session", reqP.ApprovalID)
	}

	err := approval.Owned(parent.gui).Resolve(reqC.ApprovalID, once)
	if err == nil || !strings.Contains(err.Error(), "not waiting in this window's session") {
		t.Fatalf("answer to another session's request: %v", err)
	}
	if err := approval.Owned(parent.gui).Repreview(reqC.ApprovalID); err == nil {
		t.Fatal("re-preview of another session's request went through")
	}
	if n := len(child.gui.Pending()); n != 1 {
		t.Fatalf("the refused request is no longer waiting (%d pending)", n)
	}
	for _, bad := range []string{"approval-1", "", "approval-s1-x"} {
		if err := approval.Owned(parent.gui).Resolve(bad, once); err == nil || !strings.Contains(err.Error(), "not waiting in this window's session") {
			t.Fatalf("Resolve(%q): %v", bad, err)
		}
	}

	w := approval.Owned(parent.gui, child.gui)
	if err := w.Resolve(reqC.ApprovalID, once); err != nil {
		t.Fatalf("the window owning the child session: %v", err)
	}
	if err := w.Resolve(reqP.ApprovalID, protocol.Decision{Kind: protocol.DecisionReject}); err != nil {
		t.Fatal(err)
	}
	<-doneP
	<-doneC
	if got := child.read("a.txt"); got != "x\n" {
		t.Fatalf("child a.txt %q", got)
	}
	if got := parent.read("a.txt"); !strings.HasPrefix(got, "<") {
		t.Fatalf("parent a.txt written although rejected: %q", got)
	}
}

// askOnce records the approval id of every request and approves it.
type askOnce struct{ ids []string }

func (a *askOnce) Ask(_ context.Context, req approval.Request) (protocol.Decision, error) {
	a.ids = append(a.ids, req.ApprovalID)
	return once, nil
}

// TestGateWithoutASessionStillMakesUniqueIDs: gates whose gateway names no
// session (a host without one) still never share an id.
func TestGateWithoutASessionStillMakesUniqueIDs(t *testing.T) {
	reg, err := tools.NewRegistry()
	if err != nil {
		t.Fatal(err)
	}
	reg.Add(tools.Spec{Name: "notify", Parameters: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, json.RawMessage) (tools.Result, error) { return tools.OK(map[string]any{}) })
	tool, _ := reg.Lookup("notify")
	seen := map[string]bool{}
	for i := 0; i < 2; i++ {
		gw := &askOnce{}
		gate := approval.New(approval.Config{Mode: func() approval.Mode { return approval.Manual }, Gateway: gw})
		run := gate.Middleware(tool, func(context.Context, tools.Call) (tools.Result, error) { return tools.OK(map[string]any{}) })
		if _, err := run(context.Background(), tools.Call{ID: "c1", Name: "notify", Args: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
		if len(gw.ids) != 1 || seen[gw.ids[0]] {
			t.Fatalf("gate %d asked with ids %v (seen before: %v)", i, gw.ids, seen)
		}
		if !strings.HasPrefix(gw.ids[0], "approval-gate") {
			t.Fatalf("%s names no session", gw.ids[0])
		}
		seen[gw.ids[0]] = true
	}
}
