package approval

import (
	"context"
	"errors"
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

// checker runs the language servers' checks of one waiting request: the
// whole proposal first, then whatever part the user chooses (Recheck),
// one check at a time. A new check cancels the one before and waits until
// its overlays are set back; only the newest check's outcome is told.
type checker struct {
	g    *Gate
	req  *Request
	plan func() *tools.Prepared // the current plan (a re-preview replaces it)

	starting sync.Mutex // one start (or stop) at a time

	mu        sync.Mutex
	announced bool
	stopped   bool
	gen       int
	sel       *protocol.ProposalSelection          // what the newest check checks
	outcome   *protocol.ApprovalDiagnosticsPayload // its outcome, before the announcement
	cancel    context.CancelFunc
	done      chan struct{}
}

// diagnose starts checking the files of plan() while req waits, when the
// gate has language servers: once the request is announced,
// approval.diagnostics says "checking" (the dialog never waits for a
// server), then the outcome; an outcome that comes first is told with the
// announcement. It sets req.Recheck (the user chose some hunks: check
// those) and returns recheck, which checks the whole current plan again
// (after a re-preview), and stop, which cancels a check still running and
// returns once its overlays are set back, before the approved call may
// write; nothing is published after it. diagnose wraps req.Announce, so
// call it before Ask.
func (g *Gate) diagnose(req *Request, plan func() *tools.Prepared) (recheck, stop func()) {
	prep := plan()
	if g.c.Diagnose == nil || prep == nil || len(prep.Files) == 0 {
		return func() {}, func() {}
	}
	c := &checker{g: g, req: req, plan: plan}
	announce := req.Announce
	req.Announce = func() {
		announce()
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.announced || c.stopped {
			return
		}
		c.announced = true
		if c.outcome != nil {
			c.tell(*c.outcome)
		} else {
			c.tell(protocol.ApprovalDiagnosticsPayload{State: "checking", Selection: c.sel})
		}
	}
	req.Recheck = c.recheck
	c.start(nil, prep.Files, prep.Files)
	return func() { _ = c.recheck(protocol.ProposalSelection{}) }, c.stop
}

// recheck checks the part sel of the current plan (all of it when sel is
// empty). It fails when the plan cannot be checked in part or the part
// does not apply.
func (c *checker) recheck(sel protocol.ProposalSelection) error {
	prep := c.plan()
	if len(sel.Files) == 0 && len(sel.Hunks) == 0 {
		c.start(nil, prep.Files, prep.Files)
		return nil
	}
	if prep.Select == nil {
		return errors.New("this change cannot be checked in part")
	}
	chosen, err := prep.Select(sel)
	if err != nil {
		return err
	}
	c.start(&sel, chosen, prep.Files)
	return nil
}

// tell publishes p for the request (under mu).
func (c *checker) tell(p protocol.ApprovalDiagnosticsPayload) {
	p.ApprovalID = c.req.ApprovalID
	c.g.publish(c.req.TurnID, protocol.ApprovalDiagnostics, p)
	if h, ok := c.g.c.Gateway.(DiagnosticsHearer); ok {
		h.Diagnostics(c.req.ApprovalID, p)
	}
}

// start cancels the check under way, waits for it, and checks files, the
// dry run of sel (nil: the whole of shown, the proposal the dialog shows).
func (c *checker) start(sel *protocol.ProposalSelection, files, shown []protocol.FilePreview) {
	c.starting.Lock()
	defer c.starting.Unlock()
	c.mu.Lock()
	if c.stopped {
		c.mu.Unlock()
		return
	}
	cancel, done := c.cancel, c.done
	c.gen++
	gen := c.gen
	c.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
	ctx, cancel := context.WithCancel(context.Background())
	done = make(chan struct{})
	c.mu.Lock()
	c.cancel, c.done, c.sel, c.outcome = cancel, done, sel, nil
	if c.announced {
		c.tell(protocol.ApprovalDiagnosticsPayload{State: "checking", Selection: sel})
	}
	c.mu.Unlock()
	go func() {
		defer close(done)
		p := c.g.c.Diagnose(ctx, files)
		place(&p, shown, files, sel)
		p.Selection = sel
		c.mu.Lock()
		defer c.mu.Unlock()
		switch {
		case ctx.Err() != nil || c.stopped || c.gen != gen:
		case c.announced:
			c.tell(p)
		default:
			c.outcome = &p
		}
	}()
}

// stop cancels the check under way and waits until it is over; nothing is
// told after it.
func (c *checker) stop() {
	c.starting.Lock()
	defer c.starting.Unlock()
	c.mu.Lock()
	c.stopped = true
	cancel, done := c.cancel, c.done
	c.mu.Unlock()
	if cancel != nil {
		cancel()
		<-done
	}
}
