//go:build linux

package approval_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// staleEvents lists the approval.stale events published so far.
func (h *harness) staleEvents() []protocol.ApprovalStalePayload {
	var out []protocol.ApprovalStalePayload
	for _, e := range h.allEvents() {
		if p, ok := e.Payload.(protocol.ApprovalStalePayload); ok {
			out = append(out, p)
		}
	}
	return out
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestStalePreviewBlocksApproveUntilRepreview: a file of a waiting preview
// changes on disk; approval.stale is published, approving is refused (reject
// would still work), a re-preview publishes the new base under the same
// approval id, and approving it then writes.
func TestStalePreviewBlocksApproveUntilRepreview(t *testing.T) {
	h := newHarness(t, approval.Safe, map[string]string{"src/app.ts": "one\ntwo\nthree\n"})
	type result struct {
		res tools.Result
		out map[string]any
	}
	done := make(chan result, 1)
	go func() {
		res, out := h.run(context.Background(), "apply_patch",
			`{"patch":"*** Begin Patch\n*** Update File: src/app.ts\n@@\n one\n-two\n+TWO\n three\n*** End Patch"}`)
		done <- result{res, out}
	}()
	waitFor(t, "the request", func() bool { return len(h.requests()) == 1 })
	id := h.requests()[0].ApprovalID

	// Someone edits the file while the dialog is open.
	if err := os.WriteFile(filepath.Join(h.root, "src", "app.ts"), []byte("zero\none\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := h.changed("src/app.ts"); n != 1 {
		t.Fatalf("%d subscriptions watch src/app.ts, want 1", n)
	}
	st := h.staleEvents()
	if len(st) != 1 || st[0].ApprovalID != id || len(st[0].Paths) != 1 || st[0].Paths[0] != "src/app.ts" {
		t.Fatalf("approval.stale events %+v", st)
	}
	for _, d := range []protocol.Decision{once, {Kind: protocol.DecisionSession}} {
		err := h.gui.Resolve(id, d)
		if err == nil || !strings.Contains(err.Error(), "src/app.ts changed on disk since this preview; re-preview first") {
			t.Fatalf("approve %s of a stale preview: %v", d.Kind, err)
		}
	}

	if err := h.gui.Repreview(id); err != nil {
		t.Fatal(err)
	}
	reqs := h.requests()
	if len(reqs) != 2 || reqs[1].ApprovalID != id {
		t.Fatalf("after re-preview: requests %+v", reqs)
	}
	f := reqs[1].Preview.Files[0]
	if !strings.HasPrefix(f.OldContent, "zero\n") || f.NewContent != "zero\none\nTWO\nthree\n" {
		t.Fatalf("re-preview shows old %q new %q", f.OldContent, f.NewContent)
	}
	if err := h.gui.Resolve(id, once); err != nil {
		t.Fatalf("approve after re-preview: %v", err)
	}
	r := <-done
	if r.res.IsError {
		t.Fatalf("call failed: %s", r.res.Output)
	}
	if got := h.read("src/app.ts"); got != "zero\none\nTWO\nthree\n" {
		t.Fatalf("src/app.ts %q", got)
	}
	if n := len(h.resolutions()); n != 1 {
		t.Fatalf("%d approval.resolved events", n)
	}
	// The subscription ends with the request.
	if n := h.changed("src/app.ts"); n != 0 {
		t.Fatalf("%d subscriptions left after the answer", n)
	}
}

// TestStalePreviewCanBeRejected: reject works on a stale request, and
// nothing is written.
func TestStalePreviewCanBeRejected(t *testing.T) {
	h := newHarness(t, approval.Safe, map[string]string{"a.txt": "a\n"})
	done := make(chan tools.Result, 1)
	go func() {
		res, _ := h.run(context.Background(), "write_file", `{"path":"a.txt","content":"b\n"}`)
		done <- res
	}()
	waitFor(t, "the request", func() bool { return len(h.requests()) == 1 })
	id := h.requests()[0].ApprovalID
	os.WriteFile(filepath.Join(h.root, "a.txt"), []byte("outside\n"), 0o644)
	h.changed("a.txt")
	if err := h.gui.Resolve(id, once); err == nil {
		t.Fatal("approving a stale preview worked")
	}
	if err := h.gui.Resolve(id, protocol.Decision{Kind: protocol.DecisionReject, Note: "stale"}); err != nil {
		t.Fatal(err)
	}
	if res := <-done; !res.Rejected {
		t.Fatalf("result %s", res.Output)
	}
	if got := h.read("a.txt"); got != "outside\n" {
		t.Fatalf("a.txt %q", got)
	}
	// A stale mark or re-preview of an answered request does nothing.
	h.gui.MarkStale(id, []string{"a.txt"})
	if err := h.gui.Repreview(id); err == nil {
		t.Fatal("re-preview of an answered request worked")
	}
}
