package approval

import (
	"context"
	"sync"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// Diagnose checks a dry run's proposed files with the language servers, in
// memory, and says what the change would introduce (lsp.Manager.Proposal
// fits). It must return soon after ctx ends.
type Diagnose func(ctx context.Context, files []protocol.FilePreview) protocol.ApprovalDiagnosticsPayload

// DiagnosticsHearer is a gateway that shows the diagnostics of a waiting
// request when they arrive (the terminal prompt prints their summary).
type DiagnosticsHearer interface {
	Diagnostics(approvalID string, p protocol.ApprovalDiagnosticsPayload)
}

// diagnose starts checking the files of prep while req waits, when the
// gate has language servers: approval.diagnostics says "checking" at once
// (the dialog never waits for a server), then the outcome. stop cancels a
// check still running and returns once its overlays are set back, before
// the approved call may write; nothing is published after it.
func (g *Gate) diagnose(req Request, prep *tools.Prepared) (stop func()) {
	if g.c.Diagnose == nil || prep == nil || len(prep.Files) == 0 {
		return func() {}
	}
	files := prep.Files
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	stopped := false
	tell := func(p protocol.ApprovalDiagnosticsPayload) {
		mu.Lock()
		defer mu.Unlock()
		if stopped {
			return
		}
		p.ApprovalID = req.ApprovalID
		g.publish(req.TurnID, protocol.ApprovalDiagnostics, p)
		if h, ok := g.c.Gateway.(DiagnosticsHearer); ok {
			h.Diagnostics(req.ApprovalID, p)
		}
	}
	tell(protocol.ApprovalDiagnosticsPayload{State: "checking"})
	done := make(chan struct{})
	go func() {
		defer close(done)
		p := g.c.Diagnose(ctx, files)
		if ctx.Err() == nil {
			tell(p)
		}
	}()
	return func() {
		mu.Lock()
		stopped = true
		mu.Unlock()
		cancel()
		<-done
	}
}
