//go:build linux

package approval_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
)

// TestDoubleAnswersRunTheCallOnce: many answers race; the first wins, the
// others fail, and the call (an append) runs exactly once.
func TestDoubleAnswersRunTheCallOnce(t *testing.T) {
	for i := 0; i < 20; i++ {
		h := newHarness(t, approval.Safe, nil)
		var ok, failed atomic.Int32
		h.onRequest(func(p protocol.ApprovalRequestedPayload) (protocol.Decision, bool) {
			var wg sync.WaitGroup
			for j := 0; j < 8; j++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					if err := h.gui.Resolve(p.ApprovalID, once); err != nil {
						failed.Add(1)
					} else {
						ok.Add(1)
					}
				}()
			}
			wg.Wait()
			return protocol.Decision{}, false
		})
		res, _ := h.run(context.Background(), "write_file", `{"path":"log.txt","content":"x\n","mode":"append"}`)
		if res.IsError {
			t.Fatalf("call failed: %s", res.Output)
		}
		// The answering goroutine may still be finishing its losers.
		deadline := time.Now().Add(30 * time.Second)
		for ok.Load()+failed.Load() < 8 && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if ok.Load() != 1 || failed.Load() != 7 {
			t.Fatalf("%d answers won, %d failed", ok.Load(), failed.Load())
		}
		if got := h.read("log.txt"); got != "x\n" {
			t.Fatalf("log.txt %q: the call ran more than once", got)
		}
		if n := len(h.resolutions()); n != 1 {
			t.Fatalf("%d approval.resolved events", n)
		}
	}
}

func TestCancelWhileWaiting(t *testing.T) {
	h := newHarness(t, approval.Safe, map[string]string{"a.txt": "a\n"})
	ctx, cancel := context.WithCancel(context.Background())
	asked := make(chan string, 1)
	h.onRequest(func(p protocol.ApprovalRequestedPayload) (protocol.Decision, bool) {
		asked <- p.ApprovalID
		cancel()
		return protocol.Decision{}, false
	})
	res, out := h.run(ctx, "write_file", `{"path":"a.txt","content":"b\n"}`)
	if res.Rejected || !res.IsError || errCode(out) != "not_run" {
		t.Fatalf("result %s (rejected %v)", res.Output, res.Rejected)
	}
	if h.read("a.txt") != "a\n" {
		t.Fatal("the file changed")
	}
	id := <-asked
	rs := h.resolutions()
	if len(rs) != 1 || rs[0].ApprovalID != id || rs[0].Decision.Kind != protocol.DecisionReject {
		t.Fatalf("resolutions %+v", rs)
	}
	if err := h.gui.Resolve(id, once); err == nil {
		t.Fatal("a cancelled request accepted an answer")
	}
	if h.read("a.txt") != "a\n" || len(h.gui.Pending()) != 0 {
		t.Fatal("the late answer ran the call")
	}
}

func TestCloseRejectsWaitingAndLaterRequests(t *testing.T) {
	h := newHarness(t, approval.Safe, nil)
	h.onRequest(func(protocol.ApprovalRequestedPayload) (protocol.Decision, bool) {
		go h.gui.Close()
		return protocol.Decision{}, false
	})
	res, _ := h.run(context.Background(), "write_file", `{"path":"a.txt","content":"b\n"}`)
	if !res.Rejected || !strings.Contains(string(res.Output), "closed") {
		t.Fatalf("result %s", res.Output)
	}
	res, _ = h.run(context.Background(), "bash", `{"action":"exec","command":"touch z"}`)
	if !res.Rejected {
		t.Fatalf("after close: %s", res.Output)
	}
	if _, err := os.Stat(filepath.Join(h.root, "a.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a.txt written")
	}
	h.gui.Close() // twice is fine
}

// TestChangedBetweenPreviewAndApproval: the file the user saw changes while
// the dialog is open; approving does not overwrite the newer file.
func TestChangedBetweenPreviewAndApproval(t *testing.T) {
	for _, c := range []struct{ tool, args string }{
		{"write_file", `{"path":"a.txt","content":"model\n"}`},
		{"apply_patch", `{"patch":"*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+model\n*** End Patch"}`},
	} {
		h := newHarness(t, approval.Safe, map[string]string{"a.txt": "one\ntwo\n"})
		h.onRequest(func(protocol.ApprovalRequestedPayload) (protocol.Decision, bool) {
			os.WriteFile(filepath.Join(h.root, "a.txt"), []byte("one\nuser\n"), 0o644)
			return once, true
		})
		res, out := h.run(context.Background(), c.tool, c.args)
		if !res.IsError || res.Rejected || errCode(out) != "changed_since_preview" {
			t.Errorf("%s: %s", c.tool, res.Output)
		}
		if got := h.read("a.txt"); got != "one\nuser\n" {
			t.Errorf("%s overwrote the newer file: %q", c.tool, got)
		}
	}
}

func TestInvalidAnswersAreRefusedAndTheRequestStillWaits(t *testing.T) {
	h := newHarness(t, approval.Safe, map[string]string{"a.txt": "a\n"})
	errs := make(chan error, 4)
	h.onRequest(func(p protocol.ApprovalRequestedPayload) (protocol.Decision, bool) {
		errs <- h.gui.Resolve(p.ApprovalID, protocol.Decision{Kind: "maybe"})
		errs <- h.gui.Resolve(p.ApprovalID, protocol.Decision{Kind: protocol.DecisionPartial, Files: []string{"a.txt"}})
		errs <- h.gui.Resolve(p.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce, Files: []string{"a.txt"}})
		errs <- h.gui.Resolve("approval-999", once)
		return once, true
	})
	res, _ := h.run(context.Background(), "bash", `{"action":"exec","command":"echo ok"}`)
	if res.IsError {
		t.Fatalf("result %s", res.Output)
	}
	for i := 0; i < 4; i++ {
		if err := <-errs; err == nil {
			t.Errorf("invalid answer %d accepted", i)
		}
	}
}
