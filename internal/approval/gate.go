package approval

import (
	"context"
	"fmt"
	"slices"
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
	// Gateway asks the host; it only answers: the gate publishes the
	// request and its resolution.
	Gateway Gateway
	// Session is the session the gate decides for: its approval ids name
	// it, and its events carry it ("": a random name, no events' session).
	Session string
	// Events (may be nil) hears approval.requested, approval.stale and
	// exactly one approval.resolved per request announced: the one place
	// these events come from, whatever the gateway. Publish must not block
	// on the gateway.
	Events Publisher
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
	// Prepared (may be nil) sees every call the gate prepares itself (a
	// read-only call it asks about, a re-preview) before it is described,
	// as tools.Plan's mark sees the others.
	Prepared func(*tools.Prepared)
	// Standing (may be nil: none) returns the standing policy's rules in
	// force, read on every call, so an edit applies to the next call.
	Standing func() []StandingRule
	// Audit (may be nil) hears every call decided without a person: by the
	// mode, a session rule or the standing policy. It must not block.
	Audit func(AuditEntry)
	// Save (may be nil: an always decision keeps its rule for the session
	// only) saves rule as a standing allow rule in scope ("workspace" or
	// "everywhere") and returns it as loaded.
	Save func(rule protocol.Rule, scope string) (StandingRule, error)
	// Diagnose (may be nil: none) checks a waiting request's dry run with
	// the language servers while the dialog is open (diagnose.go).
	Diagnose Diagnose
	// Asking (may be nil) hears each request just before the gateway is
	// asked (the Notification hooks). It observes beside the gateway, never
	// in front of it, so the gateway's optional interfaces (Staler,
	// SaveNotifier, DiagnosticsHearer, …) stay visible. It must not block.
	Asking func(Request)
}

// Gate is the approval gate of one session: its rules and its middleware.
type Gate struct {
	c       Config
	rules   *Rules
	session string         // named in the approval ids
	ids     *atomic.Uint64 // shared with the gates In made
}

// New returns a gate with no session rules.
func New(c Config) *Gate {
	if c.Mode == nil || c.Gateway == nil {
		panic("approval.New: Mode and Gateway are required")
	}
	session := c.Session
	if session == "" {
		session = gateSession(c.Gateway)
	}
	return &Gate{c: c, rules: NewRules(c.Hook), session: session, ids: new(atomic.Uint64)}
}

// In is g for calls that work in another folder (a teammate in its own
// worktree): the same mode, gateway, session rules, standing policy and
// approval ids, with the shell analysis and the workspace-relative rules
// checked against ws, its files watched by watch (nil: none) and no
// language servers' check of its dry runs (they serve g's folder).
func (g *Gate) In(ws Boundary, watch func(paths []string, onChange func(changed []string)) (cancel func())) *Gate {
	c := g.c
	c.Workspace, c.Watch, c.Diagnose = ws, watch, nil
	return &Gate{c: c, rules: g.rules, session: g.session, ids: g.ids}
}

// Rules returns the session rules, to list and revoke.
func (g *Gate) Rules() *Rules { return g.rules }

// Middleware is the approval middleware (a tools.Middleware). For every
// call it:
//
//  1. takes the call's plan (tools.Plan made it; a call that reaches the
//     gate without one is planned here); a call that cannot go ahead
//     returns its error unasked;
//  2. decides the plan with the one Decide, no shortcut before the rules:
//     a deny of any layer (standing, session, the context's verdict layers
//     such as a PreToolUse hook) refuses, in every mode, and the model
//     reads why (the turn goes on); then an ask asks; then allow rules that
//     cover the whole call run it; then the mode (auto runs, safe runs a
//     plan that only reads, plan refuses a plan that writes or runs,
//     manual asks);
//  3. asks the gateway when the verdict is ask: reject returns a rejected
//     result (the turn stops with blocked_by_approval); once, session
//     (which adds the proposed rule) and partial run the call as planned,
//     so what runs is what was shown.
//
// Every decision made without a person is audited, and so is what the
// user's policy kept from a call as it ran (auditPolicy).
//
// It calls next for every call that runs, with the plan and the decision in
// the call (tools.Call.Plan, .Decision), so a middleware listed after it
// (inside it) sees exactly the calls that ran, and none that waited for an
// answer.
func (g *Gate) Middleware(t tools.Tool, next tools.Handler) tools.Handler {
	name := t.Spec().Name
	next = g.auditPolicy(name, next)
	gated, _ := t.(tools.Gated)
	return func(ctx context.Context, call tools.Call) (tools.Result, error) {
		once := protocol.Decision{Kind: protocol.DecisionOnce}
		mode := g.c.Mode()
		var all []StandingRule
		if g.c.Standing != nil {
			all = g.c.Standing()
		}
		if call.Plan == nil {
			p, res, ok := tools.PlanCall(ctx, t, call.Args)
			if !ok {
				return res, nil
			}
			g.annotate(p)
			call.Plan = p
		}
		preview, k, plan := view{g.c.Workspace}.planCall(name, call.Args, call.Plan)
		readOnly := plan.ReadOnly
		dec := Decide(plan, append(g.layers(all), LayersFrom(ctx)...), mode)
		sessionUsed, refs := g.sessionUsed(dec.Rules)
		switch {
		case dec.Verdict == VerdictDeny:
			note := "denied by the standing policy"
			if dec.By == ByMode || dec.By == ByLayer {
				note = dec.Why
			}
			g.report(Record{Kind: RecordDecision, CallID: call.ID, Tool: name, By: dec.By, Standing: refs,
				Decision: &protocol.Decision{Kind: protocol.DecisionReject, Note: note}})
			g.audit(ctx, call, name, preview.Summary, mode, dec.By, VerdictDeny, nil, refs)
			res := Denied(dec.Why)
			res.Approval = &protocol.CallApproval{By: string(dec.By), Standing: refs}
			return res, nil
		case dec.Verdict == VerdictAllow && dec.By == ByMode:
			call.Decision = &once
			g.audit(ctx, call, name, preview.Summary, mode, ByMode, VerdictAllow, nil, nil)
			return next(ctx, call)
		case dec.Verdict == VerdictAllow:
			rec := Record{Kind: RecordDecision, CallID: call.ID, Tool: name, Decision: &once, By: dec.By, Standing: refs}
			for _, r := range sessionUsed {
				rec.RuleIDs = append(rec.RuleIDs, r.ID)
			}
			g.report(rec)
			g.audit(ctx, call, name, preview.Summary, mode, dec.By, VerdictAllow, rec.RuleIDs, refs)
			call.Decision = &once
			res, err := next(ctx, call)
			res.Approval = &protocol.CallApproval{By: string(dec.By), Rules: sessionUsed, Standing: refs}
			return res, err
		}

		req := Request{
			ApprovalID: approvalID(g.session, g.ids.Add(1)), TurnID: tools.TurnFrom(ctx),
			CallID: call.ID, Tool: name, Preview: preview, Rule: proposal(name, k), Agent: AgentFrom(ctx),
		}
		if h := HooksFrom(ctx); len(h.Runs) > 0 {
			req.Hooks, req.Rewrite = h.Runs, h.Rewrite
		}
		// A re-preview replaces the plan, and with it what runs and what
		// the answer is validated against; mu guards both from the gateway,
		// and orders a re-preview's approval.requested before the
		// resolution (finished: none is published after it).
		var mu sync.Mutex
		cur := req
		finished := false
		finish := func(r Request, d protocol.Decision) {
			mu.Lock()
			finished = true
			mu.Unlock()
			g.resolved(r, d)
		}
		var announced atomic.Bool
		announce := func(r Request) { g.publish(r.TurnID, protocol.ApprovalRequested, r.Payload()) }
		req.Announce = func() {
			if !announced.Swap(true) {
				mu.Lock()
				r := cur
				mu.Unlock()
				announce(r)
			}
		}
		if gated != nil {
			req.Repreview = func() (protocol.Preview, *protocol.Rule, error) {
				p, res, ok := gated.Prepare(ctx, call.Args)
				if !ok {
					return protocol.Preview{}, nil, fmt.Errorf("re-preview of %s failed: %s", name, res.Output)
				}
				g.annotate(p)
				pv, k2 := g.describe(name, call.Args, p, readOnly)
				rule := proposal(name, k2)
				mu.Lock()
				defer mu.Unlock()
				if finished {
					return protocol.Preview{}, nil, fmt.Errorf("%s was answered while its preview was refreshed", name)
				}
				call.Plan, cur.Preview, cur.Rule = p, pv, rule
				announce(cur) // the fresh preview replaces the shown one
				return pv, rule, nil
			}
		}
		cancelWatch := g.watch(req, call.Plan)
		recheck, stopCheck := g.diagnose(&req, func() *tools.Prepared {
			mu.Lock()
			defer mu.Unlock()
			return call.Plan
		})
		if repreview := req.Repreview; repreview != nil {
			// The fresh preview is checked afresh, whole, as the dialog
			// shows it again.
			req.Repreview = func() (protocol.Preview, *protocol.Rule, error) {
				pv, rule, err := repreview()
				if err == nil {
					recheck()
				}
				return pv, rule, err
			}
		}
		if g.c.Asking != nil {
			g.c.Asking(req)
		}
		asked := time.Now()
		d, err := g.c.Gateway.Ask(ctx, req)
		waited := time.Since(asked)
		cancelWatch()
		stopCheck()
		mu.Lock()
		req.Preview, req.Rule = cur.Preview, cur.Rule
		mu.Unlock()
		rec := Record{Kind: RecordDecision, ApprovalID: req.ApprovalID, CallID: call.ID, Tool: name, By: ByUser}
		if err != nil || ctx.Err() != nil {
			finish(req, protocol.Decision{Kind: protocol.DecisionReject, Note: "the turn was cancelled"})
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
		// Published before the call runs: approval.resolved precedes
		// whatever the call does next.
		finish(req, d)
		rec.Decision = &d
		switch d.Kind {
		case protocol.DecisionReject:
			g.report(rec)
			res := Rejected(d.Note)
			res.Approval, res.Waited = &protocol.CallApproval{By: string(ByUser)}, waited
			return res, nil
		case protocol.DecisionAlways:
			if saved, ok := g.save(req, d); ok {
				rec.Standing = []protocol.StandingRef{saved.Ref()}
				break
			}
			fallthrough // not saved: the rule lasts for the session
		case protocol.DecisionSession:
			if req.Rule != nil {
				rule := *req.Rule
				rule.Agent = req.Agent
				r := g.rules.Add(rule)
				rec.Rule = &r
			}
		}
		g.report(rec)
		call.Decision = &d
		res, err := next(ctx, call)
		res.Approval, res.Waited = &protocol.CallApproval{By: string(ByUser)}, waited
		return res, err
	}
}

// resolved publishes the one approval.resolved of req, announcing it first
// when its gateway never did (a gateway that answered without waiting).
func (g *Gate) resolved(req Request, d protocol.Decision) {
	req.Announce()
	g.publish(req.TurnID, protocol.ApprovalResolved, protocol.ApprovalResolvedPayload{ApprovalID: req.ApprovalID, Decision: d})
}

func (g *Gate) publish(turnID string, t protocol.EventType, payload any) {
	if g.c.Events != nil {
		g.c.Events.Publish(protocol.Event{SessionID: g.c.Session, TurnID: turnID, Type: t, Payload: payload})
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

// watch watches the files of prep while req waits, when the gate has a
// watcher and the gateway can show staleness: the gateway marks the
// request (approving it then needs a re-preview) and the gate publishes
// approval.stale.
func (g *Gate) watch(req Request, prep *tools.Prepared) (cancel func()) {
	s, ok := g.c.Gateway.(Staler)
	if g.c.Watch == nil || !ok || prep == nil || len(prep.Paths) == 0 {
		return func() {}
	}
	return g.c.Watch(prep.Paths, func(changed []string) {
		if s.MarkStale(req.ApprovalID, changed) {
			g.publish(req.TurnID, protocol.ApprovalStale, protocol.ApprovalStalePayload{ApprovalID: req.ApprovalID, Paths: slices.Clone(changed)})
		}
	})
}

func (g *Gate) annotate(p *tools.Prepared) {
	if g.c.Prepared != nil && p != nil {
		g.c.Prepared(p)
	}
}

func (g *Gate) report(r Record) {
	if g.c.Hook != nil {
		g.c.Hook(r)
	}
}
