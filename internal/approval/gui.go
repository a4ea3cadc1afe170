package approval

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"gatehouse/internal/protocol"
)

// Publisher receives events; *events.Bus implements it. The gate publishes
// with no lock of a gateway's held.
type Publisher interface {
	Publish(protocol.Event)
}

// GUI is the gateway of the window: Ask registers the request, has the gate
// announce it (approval.requested) and waits; the page answers through
// Resolve (the ResolveApproval binding).
//
// A request ends once: with the first valid Resolve, or as a reject when
// the turn is cancelled or the gateway closes while it waits (the gate
// publishes approval.resolved). The first answer wins; a later Resolve of
// the same request returns an error and changes nothing.
type GUI struct {
	sessionID string

	mu      sync.Mutex
	pending map[string]*waiter
	closed  bool
	done    chan struct{}
}

type waiter struct {
	req    Request
	answer chan protocol.Decision // buffered: Resolve never blocks
	stale  []string               // paths changed on disk since the preview
	// refreshing: a Repreview's dry run is under way (outside the lock);
	// approving waits for the fresh preview, rejecting does not.
	refreshing bool
}

// NewGUI returns the gateway of session sessionID.
func NewGUI(sessionID string) *GUI {
	return &GUI{sessionID: sessionID, pending: map[string]*waiter{}, done: make(chan struct{})}
}

// SessionID is the session of the gateway; a gate asking through it names
// this session in its approval ids.
func (g *GUI) SessionID() string { return g.sessionID }

// Ask implements Gateway.
func (g *GUI) Ask(ctx context.Context, req Request) (protocol.Decision, error) {
	w := &waiter{req: req, answer: make(chan protocol.Decision, 1)}
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return closedDecision, nil
	}
	if _, dup := g.pending[req.ApprovalID]; dup {
		g.mu.Unlock()
		return protocol.Decision{}, fmt.Errorf("approval %s is already waiting", req.ApprovalID)
	}
	g.pending[req.ApprovalID] = w
	g.mu.Unlock()
	if req.Announce != nil {
		req.Announce() // waiting already: the page's answer finds it
	}

	select {
	case d := <-w.answer:
		return d, nil
	case <-ctx.Done():
		if g.take(req.ApprovalID) {
			return protocol.Decision{}, ctx.Err()
		}
	case <-g.done:
		if g.take(req.ApprovalID) {
			return closedDecision, nil
		}
	}
	return <-w.answer, nil // answered at the same moment: the answer stands
}

var closedDecision = protocol.Decision{Kind: protocol.DecisionReject, Note: "the session was closed before an answer"}

// take removes a waiting request; false when it was answered already.
func (g *GUI) take(id string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if _, ok := g.pending[id]; !ok {
		return false
	}
	delete(g.pending, id)
	return true
}

// Resolve answers the request approvalID. It fails, changing nothing, when
// the request is not waiting (already answered, cancelled, unknown) or d is
// not valid for it (see Validate).
func (g *GUI) Resolve(approvalID string, d protocol.Decision) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	w, ok := g.pending[approvalID]
	if !ok {
		return fmt.Errorf("approval %s is not waiting: it was already answered or cancelled", approvalID)
	}
	if err := Validate(w.req, d); err != nil {
		return err
	}
	if len(w.stale) > 0 && d.Kind != protocol.DecisionReject {
		return fmt.Errorf("%s changed on disk since this preview; re-preview first", strings.Join(w.stale, ", "))
	}
	if w.refreshing && d.Kind != protocol.DecisionReject {
		return fmt.Errorf("the preview of approval %s is being refreshed; answer the fresh one", approvalID)
	}
	delete(g.pending, approvalID)
	w.answer <- d
	return nil
}

// MarkStale implements Staler: paths of the waiting request approvalID
// changed on disk. Approving the request fails until Repreview; rejecting
// still works.
func (g *GUI) MarkStale(approvalID string, paths []string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	w, ok := g.pending[approvalID]
	if !ok || len(paths) == 0 {
		return false
	}
	for _, p := range paths {
		if !slices.Contains(w.stale, p) {
			w.stale = append(w.stale, p)
		}
	}
	return true
}

// Repreview prepares the waiting request approvalID again from the disk as
// it is now. The request keeps its approval id: the gate publishes
// approval.requested again with the fresh preview, which replaces the old
// one, and the stale marks the dry run saw are cleared (a path that changes
// during it stays marked). It fails, changing nothing, when the request is
// not waiting, has no dry run, is being refreshed already, or cannot be
// prepared any more (reject it then).
//
// The dry run reads the disk, so it runs outside the gateway's lock: other
// requests are answered, marked and listed meanwhile. Approving this one is
// refused until the fresh preview stands (what is approved is what was
// shown); rejecting it works at once, and the gate then publishes no
// preview after the resolution.
func (g *GUI) Repreview(approvalID string) error {
	g.mu.Lock()
	w, ok := g.pending[approvalID]
	switch {
	case !ok:
		g.mu.Unlock()
		return fmt.Errorf("approval %s is not waiting: it was already answered or cancelled", approvalID)
	case w.req.Repreview == nil:
		g.mu.Unlock()
		return fmt.Errorf("%s has no preview to refresh", w.req.Tool)
	case w.refreshing:
		g.mu.Unlock()
		return fmt.Errorf("the preview of approval %s is being refreshed already", approvalID)
	}
	w.refreshing = true
	seen := len(w.stale)
	repreview := w.req.Repreview
	g.mu.Unlock()

	pv, rule, err := repreview()

	g.mu.Lock()
	defer g.mu.Unlock()
	w.refreshing = false
	if err != nil {
		return err
	}
	if g.pending[approvalID] != w {
		return fmt.Errorf("approval %s was answered while its preview was refreshed", approvalID)
	}
	w.req.Preview, w.req.Rule = pv, rule
	w.stale = slices.Clone(w.stale[seen:])
	return nil
}

// Recheck has the language servers check only the part sel of the waiting
// request approvalID (all of it when sel is empty): the files and hunks
// the user ticked. The outcome comes as approval.diagnostics naming sel.
// It fails, changing nothing, when the request is not waiting, sel names
// what is not in its preview, or no language server checks it.
func (g *GUI) Recheck(approvalID string, sel protocol.ProposalSelection) error {
	g.mu.Lock()
	w, ok := g.pending[approvalID]
	if !ok {
		g.mu.Unlock()
		return fmt.Errorf("approval %s is not waiting: it was already answered or cancelled", approvalID)
	}
	req := w.req
	g.mu.Unlock()
	if len(sel.Files) > 0 || len(sel.Hunks) > 0 {
		if err := Validate(req, protocol.Decision{Kind: protocol.DecisionPartial, Files: sel.Files, Hunks: sel.Hunks}); err != nil {
			return err
		}
	}
	if req.Recheck == nil {
		return fmt.Errorf("no language server checks %s", req.Tool)
	}
	return req.Recheck(sel)
}

// waiting reports whether request approvalID waits for an answer here.
func (g *GUI) waiting(approvalID string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	_, ok := g.pending[approvalID]
	return ok
}

// Pending lists the requests waiting for an answer.
func (g *GUI) Pending() []Request {
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]Request, 0, len(g.pending))
	for _, w := range g.pending {
		out = append(out, w.req)
	}
	return out
}

// Close rejects every waiting request and every later one. It may be
// called more than once.
func (g *GUI) Close() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.closed {
		g.closed = true
		close(g.done)
	}
}
