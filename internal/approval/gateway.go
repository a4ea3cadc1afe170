package approval

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"gatehouse/internal/protocol"
)

// Request is one question to the host: may this call run?
type Request struct {
	ApprovalID string
	// TurnID is the turn the call belongs to ("" outside a turn).
	TurnID  string
	CallID  string
	Tool    string
	Preview protocol.Preview
	// Rule is what a session decision creates; nil when the call cannot be
	// covered by a rule (a session decision then approves it once).
	Rule *protocol.Rule
	// Agent names the subagent asking (see AgentFrom); "" for the session's
	// own agent.
	Agent string
	// Repreview (nil when the call has no dry run) prepares the call again
	// from the disk as it is now and returns the fresh preview and rule; the
	// gate publishes approval.requested again with them and then runs what
	// this new preview shows. It reads the disk: a gateway calls it while
	// the request waits, holding none of its locks, and takes no approval of
	// the request until it returns (a reject, yes: the gate then publishes
	// no fresh preview after the resolution, and Repreview fails).
	Repreview func() (protocol.Preview, *protocol.Rule, error)
	// Hooks are the PreToolUse hooks that ran on the call, with what each
	// said; Rewrite is set when one rewrote it (Preview shows the call as
	// rewritten).
	Hooks   []protocol.HookRun
	Rewrite *protocol.HookRewrite
	// Recheck (nil when no language server checks the call) has the
	// language servers check only the part sel of the proposal (all of it
	// when sel is empty), as the user chose it in the dialog:
	// approval.diagnostics says "checking" for sel, then the outcome. It
	// reads the disk (a dry run of the part): a gateway calls it holding
	// none of its locks.
	Recheck func(sel protocol.ProposalSelection) error
	// Announce publishes approval.requested (the gate's; it does nothing
	// after the first call). A gateway calls it once it can take an answer
	// for the request, before it waits; when Ask returns without having
	// called it, the gate announces the request before its resolution.
	Announce func()
}

// Staler is implemented by a gateway that can tell the user a waiting
// request's preview went stale (the GUI). The gate calls MarkStale, from the
// watcher's goroutine, when a file of the preview changes on disk, and
// publishes approval.stale when it returns true; it must not block.
// MarkStale of a request that is not waiting does nothing and returns false.
type Staler interface {
	MarkStale(approvalID string, paths []string) bool
}

// Payload is the request as the approval.requested event carries it.
func (r Request) Payload() protocol.ApprovalRequestedPayload {
	return protocol.ApprovalRequestedPayload{ApprovalID: r.ApprovalID, CallID: r.CallID, Tool: r.Tool, Preview: r.Preview, Rule: r.Rule, Agent: r.Agent,
		Hooks: r.Hooks, Rewrite: r.Rewrite}
}

// Gateway is how a host answers approval requests: a dialog (GUI), the
// terminal (headless exec), an editor (ACP), a rejecting stub (no
// terminal). A gateway only answers: the gate publishes approval.requested
// (through Request.Announce) and approval.resolved.
//
// Ask blocks until the request is decided and returns the decision, which
// Validate accepts for req. When ctx is done first, Ask returns ctx.Err()
// (the decision is then ignored; the gate does not run the call). Ask may be
// called concurrently for different requests; each request is decided at
// most once, so the call behind it runs at most once.
type Gateway interface {
	Ask(ctx context.Context, req Request) (protocol.Decision, error)
}

// Validate checks that d is a decision req can take: a known kind, and for
// partial, a preview that allows it and a choice of files and hunks that
// are in it (at least one).
func Validate(req Request, d protocol.Decision) error {
	if !d.Kind.Valid() {
		return fmt.Errorf("unknown decision kind %q: use once, session, always, reject or partial", d.Kind)
	}
	if d.Scope != "" && (d.Kind != protocol.DecisionAlways || d.Scope != "workspace" && d.Scope != "everywhere") {
		return fmt.Errorf("scope %q: an always decision saves for workspace or everywhere", d.Scope)
	}
	if d.Kind == protocol.DecisionAlways && req.Rule == nil {
		return errors.New("this call offers no rule to save (approve it once instead)")
	}
	if d.Kind != protocol.DecisionPartial {
		if len(d.Files) > 0 || len(d.Hunks) > 0 {
			return errors.New("files and hunks go only with a decision of kind partial")
		}
		return nil
	}
	if !req.Preview.Partial {
		return fmt.Errorf("%s cannot be approved in part", req.Tool)
	}
	if len(d.Files) == 0 && len(d.Hunks) == 0 {
		return errors.New("a partial approval needs at least one file or hunk (reject instead)")
	}
	for _, f := range d.Files {
		if !slices.ContainsFunc(req.Preview.Files, func(p protocol.FilePreview) bool { return p.Path == f || p.MovedFrom == f }) {
			return fmt.Errorf("%q is not a file of this change", f)
		}
	}
	for _, h := range d.Hunks {
		if !slices.ContainsFunc(req.Preview.Files, func(p protocol.FilePreview) bool {
			return slices.ContainsFunc(p.Hunks, func(x protocol.HunkPreview) bool { return x.ID == h })
		}) {
			return fmt.Errorf("%q is not a hunk of this change", h)
		}
	}
	return nil
}

// RejectAll is the gateway of a host that cannot ask (headless without a
// terminal): every request is rejected with Note.
type RejectAll struct{ Note string }

// Ask implements Gateway.
func (g RejectAll) Ask(ctx context.Context, _ Request) (protocol.Decision, error) {
	if err := ctx.Err(); err != nil {
		return protocol.Decision{}, err
	}
	return protocol.Decision{Kind: protocol.DecisionReject, Note: g.Note}, nil
}

type agentKey struct{}

// WithAgent records in ctx the subagent whose calls run under it; the gate
// labels their approval requests with it.
func WithAgent(ctx context.Context, agent string) context.Context {
	return context.WithValue(ctx, agentKey{}, agent)
}

// AgentFrom returns the subagent recorded in ctx, "" when none.
func AgentFrom(ctx context.Context) string {
	a, _ := ctx.Value(agentKey{}).(string)
	return a
}
