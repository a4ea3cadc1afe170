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
// gate has language servers: once the request is announced,
// approval.diagnostics says "checking" (the dialog never waits for a
// server), then the outcome; an outcome that comes first is told with the
// announcement. stop cancels a check still running and returns once its
// overlays are set back, before the approved call may write; nothing is
// published after it. diagnose wraps req.Announce, so call it before Ask.
func (g *Gate) diagnose(req *Request, prep *tools.Prepared) (stop func()) {
	if g.c.Diagnose == nil || prep == nil || len(prep.Files) == 0 {
		return func() {}
	}
	files := prep.Files
	ctx, cancel := context.WithCancel(context.Background())
	var mu sync.Mutex
	stopped, announced := false, false
	var outcome *protocol.ApprovalDiagnosticsPayload
	tell := func(p protocol.ApprovalDiagnosticsPayload) { // under mu
		p.ApprovalID = req.ApprovalID
		g.publish(req.TurnID, protocol.ApprovalDiagnostics, p)
		if h, ok := g.c.Gateway.(DiagnosticsHearer); ok {
			h.Diagnostics(req.ApprovalID, p)
		}
	}
	announce := req.Announce
	req.Announce = func() {
		announce()
		mu.Lock()
		defer mu.Unlock()
		if announced || stopped {
			return
		}
		announced = true
		if outcome != nil {
			tell(*outcome)
		} else {
			tell(protocol.ApprovalDiagnosticsPayload{State: "checking"})
		}
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		p := g.c.Diagnose(ctx, files)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case ctx.Err() != nil || stopped:
		case announced:
			tell(p)
		default:
			outcome = &p
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
