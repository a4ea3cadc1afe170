package approval

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// Config is what a Gate needs. Mode and Gateway are required.
type Config struct {
	// Mode is read on every call, so a switch applies to the next call.
	Mode func() Mode
	// Gateway asks the host. When it has a SessionID method (GUI does),
	// the gate's approval ids name that session (see SessionOf).
	Gateway Gateway
	// Workspace is the boundary the shell analysis checks redirections and
	// file arguments against; nil counts every path as outside.
	Workspace Boundary
	// Hook (may be nil) hears every decision and rule change, for the
	// session log. It must not block.
	Hook func(Record)
	// Watch (may be nil: no watching) calls onChange when any of paths
	// (workspace-relative) changes on disk, until cancel is called;
	// (*watch.Watcher).OnChange fits. While a request with a dry run waits,
	// the gate watches its files and tells a Staler gateway when they change.
	// A change the watcher has not delivered yet is still caught: the
	// prepared call re-checks content hashes and refuses to run
	// (changed_since_preview).
	Watch func(paths []string, onChange func(changed []string)) (cancel func())
}

// Gate is the approval gate of one session: its rules and its middleware.
type Gate struct {
	c       Config
	rules   *Rules
	session string // named in the approval ids
	ids     atomic.Uint64
}

// New returns a gate with no session rules.
func New(c Config) *Gate {
	if c.Mode == nil || c.Gateway == nil {
		panic("approval.New: Mode and Gateway are required")
	}
	return &Gate{c: c, rules: NewRules(c.Hook), session: gateSession(c.Gateway)}
}

// Rules returns the session rules, to list and revoke.
func (g *Gate) Rules() *Rules { return g.rules }

// Middleware is the approval middleware (a tools.Middleware). It decides
// for every call, in this order:
//
//  1. the mode: auto, and safe for a read-only call, run without asking;
//  2. the preview: a tools.Gated tool prepares the call (a dry run for file
//     tools); a call that cannot go ahead returns its error unasked;
//  3. session rules: a call they cover runs without asking;
//  4. the gateway: reject returns a rejected result (the turn stops with
//     blocked_by_approval); once, session (which adds the proposed rule) and
//     partial run the call as prepared, so what runs is what was shown.
//
// It calls next for every call that runs, a prepared one handed on with
// tools.WithPrepared, so a middleware listed after it (inside it) sees
// exactly the calls that ran, and none that waited for an answer.
func (g *Gate) Middleware(t tools.Tool, next tools.Handler) tools.Handler {
	name := t.Spec().Name
	gated, _ := t.(tools.Gated)
	return func(ctx context.Context, call tools.Call) (tools.Result, error) {
		readOnly := tools.ReadOnlyCall(t, call.Args)
		if !g.c.Mode().asks(readOnly) {
			return next(ctx, call)
		}
		var prep *tools.Prepared
		if gated != nil {
			p, res, ok := gated.Prepare(ctx, call.Args)
			if !ok {
				return res, nil
			}
			prep = p
		}
		// An approved call goes on down the chain; a prepared one is handed
		// to the executor, which runs what was shown.
		run := func(ctx context.Context, d protocol.Decision) (tools.Result, error) {
			if prep != nil {
				ctx = tools.WithPrepared(ctx, call, prep, d)
			}
			return next(ctx, call)
		}
		preview, k := g.describe(name, call.Args, prep, readOnly)
		once := protocol.Decision{Kind: protocol.DecisionOnce}
		if used := g.rules.covering(name, k); used != nil {
			rec := Record{Kind: RecordDecision, CallID: call.ID, Tool: name, Decision: &once, By: ByRule}
			for _, r := range used {
				rec.RuleIDs = append(rec.RuleIDs, r.ID)
			}
			g.report(rec)
			res, err := run(ctx, once)
			res.Approval = &protocol.CallApproval{By: string(ByRule), Rules: used}
			return res, err
		}

		req := Request{
			ApprovalID: approvalID(g.session, g.ids.Add(1)), TurnID: tools.TurnFrom(ctx),
			CallID: call.ID, Tool: name, Preview: preview, Rule: proposal(name, k),
		}
		// A re-preview replaces prep, and with it what runs and what the
		// answer is validated against; mu guards both from the gateway.
		var mu sync.Mutex
		cur := req
		if gated != nil {
			req.Repreview = func() (protocol.Preview, *protocol.Rule, error) {
				p, res, ok := gated.Prepare(ctx, call.Args)
				if !ok {
					return protocol.Preview{}, nil, fmt.Errorf("re-preview of %s failed: %s", name, res.Output)
				}
				pv, k2 := g.describe(name, call.Args, p, readOnly)
				rule := proposal(name, k2)
				mu.Lock()
				prep, cur.Preview, cur.Rule = p, pv, rule
				mu.Unlock()
				return pv, rule, nil
			}
		}
		cancelWatch := g.watch(req.ApprovalID, prep)
		asked := time.Now()
		d, err := g.c.Gateway.Ask(ctx, req)
		waited := time.Since(asked)
		cancelWatch()
		mu.Lock()
		req.Preview, req.Rule = cur.Preview, cur.Rule
		mu.Unlock()
		rec := Record{Kind: RecordDecision, ApprovalID: req.ApprovalID, CallID: call.ID, Tool: name, By: ByUser}
		if err != nil || ctx.Err() != nil {
			if ctx.Err() == nil {
				return tools.Result{}, fmt.Errorf("approval of %s: %w", name, err)
			}
			rec.By, rec.Decision = ByCancel, &protocol.Decision{Kind: protocol.DecisionReject, Note: "the turn was cancelled"}
			g.report(rec)
			res := tools.Fail(tools.CodeNotRun, "not run: the turn was cancelled while this call waited for approval", "")
			res.Waited = waited
			return res, nil
		}
		if err := Validate(req, d); err != nil {
			d = protocol.Decision{Kind: protocol.DecisionReject, Note: "invalid answer: " + err.Error()}
		}
		rec.Decision = &d
		switch d.Kind {
		case protocol.DecisionReject:
			g.report(rec)
			res := Rejected(d.Note)
			res.Approval, res.Waited = &protocol.CallApproval{By: string(ByUser)}, waited
			return res, nil
		case protocol.DecisionSession:
			if req.Rule != nil {
				r := g.rules.Add(*req.Rule)
				rec.Rule = &r
			}
		}
		g.report(rec)
		res, err := run(ctx, d)
		res.Approval, res.Waited = &protocol.CallApproval{By: string(ByUser)}, waited
		return res, err
	}
}

// Rejected is the result of a call the user rejected: the model reads
// "[approval-rejected] <note>", and the agent loop stops the turn with
// blocked_by_approval because Rejected is set.
func Rejected(note string) tools.Result {
	text := note
	if text == "" {
		text = "the user did not approve this call"
	}
	res := tools.Fail(tools.CodeApprovalRejected, "[approval-rejected] "+text, "")
	res.Rejected, res.Note = true, note
	return res
}

// watch watches the files of prep while its request waits, when the gate
// has a watcher and the gateway can show staleness.
func (g *Gate) watch(approvalID string, prep *tools.Prepared) (cancel func()) {
	s, ok := g.c.Gateway.(Staler)
	if g.c.Watch == nil || !ok || prep == nil || len(prep.Paths) == 0 {
		return func() {}
	}
	return g.c.Watch(prep.Paths, func(changed []string) { s.MarkStale(approvalID, changed) })
}

func (g *Gate) report(r Record) {
	if g.c.Hook != nil {
		g.c.Hook(r)
	}
}
