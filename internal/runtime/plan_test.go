package runtime

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/checkpoint"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/files"
)

// countingPatch is apply_patch under another name, counting its Prepare
// calls.
type countingPatch struct {
	tools.Tool
	prepares *atomic.Int32
}

func (c countingPatch) Spec() tools.Spec {
	s := c.Tool.Spec()
	s.Name = "counted_patch"
	return s
}

func (c countingPatch) Prepare(ctx context.Context, args json.RawMessage) (*tools.Prepared, tools.Result, bool) {
	c.prepares.Add(1)
	return c.Tool.(tools.Gated).Prepare(ctx, args)
}

type countingProvider struct{ t countingPatch }

func (p countingProvider) Name() string        { return "counting" }
func (p countingProvider) Tools() []tools.Tool { return []tools.Tool{p.t} }

// A call is planned once through the whole chain (plan, gate, file
// recorder, checkpoint, executor): an approved apply_patch is prepared
// exactly once, and so is one that runs unasked in auto mode; both are
// recorded for undo and seen by the file recorder from that one plan.
func TestAnApprovedPatchIsPreparedOnce(t *testing.T) {
	for _, mode := range []approval.Mode{approval.Safe, approval.Auto} {
		t.Run(string(mode), func(t *testing.T) {
			patch := `{"patch":"*** Begin Patch\n*** Add File: hello.txt\n+hi\n*** End Patch"}`
			var prepares atomic.Int32
			h := start(t, llmtest.Script{Responses: []llmtest.Response{
				{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "counted_patch", Arguments: llmtest.Text(patch)}}},
				{Text: llmtest.Text("Done.")},
			}}, mode, nil, func(o *Options) {
				store, err := checkpoint.Open(filepath.Join(t.TempDir(), "checkpoints"), 0)
				if err != nil {
					t.Fatal(err)
				}
				o.Checkpoints = store
				o.Providers = []tools.Provider{countingProvider{countingPatch{files.NewApplyPatch(o.Workspace), &prepares}}}
			})
			done := make(chan protocol.StopReason, 1)
			go func() { done <- h.run("go") }()
			if mode == approval.Safe {
				req := h.waitApproval()
				if err := h.gui().Resolve(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce}); err != nil {
					t.Fatal(err)
				}
			}
			if r := <-done; r != protocol.StopCompleted {
				t.Fatalf("stop %s: %s", r, h.toolResult("c1"))
			}
			if b, err := os.ReadFile(filepath.Join(h.root, "hello.txt")); err != nil || string(b) != "hi\n" {
				t.Fatalf("hello.txt = %q, %v", b, err)
			}
			if n := prepares.Load(); n != 1 {
				t.Errorf("Prepare ran %d times, want 1", n)
			}
			if units, err := h.sess.UndoUnits(); err != nil || len(units) != 1 {
				t.Errorf("undo units %v, %v: the checkpoint stage did not record the plan", units, err)
			}
			// The watcher reports the change when its batch arrives.
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				ch := h.sess.Files().T.Changed()
				if len(ch) == 1 && ch[0].Path == "hello.txt" && len(ch[0].Origins) == 1 && ch[0].Origins[0] == "agent" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the file recorder saw %+v", ch)
				}
			}
		})
	}
}
