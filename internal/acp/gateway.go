package acp

import (
	"context"
	"strings"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
)

// Permission option ids, one per answer the editor can give.
const (
	optAllowOnce   = "allow_once"
	optAllowAlways = "allow_always"
	optRejectOnce  = "reject_once"
)

// rejectedNote is what the model (and the blocked message) reads when the
// editor's user rejected a call.
const rejectedNote = "rejected in the editor"

// permissionGateway asks the editor through session/request_permission. It
// only answers: the gate publishes approval.requested (when Ask announces
// the request) and approval.resolved, as for every host.
type permissionGateway struct {
	s         *acpSession
	sessionID string
	pub       approval.Publisher

	// The language servers' word on the waiting requests by approval id
	// (approval.DiagnosticsSummary), and the ones asked now.
	diagMu  sync.Mutex
	diag    map[string]string
	waiting map[string]approval.Request
}

// Diagnostics implements approval.DiagnosticsHearer: the outcome of the
// language servers' check goes into the permission request (told before
// it is sent) or, once sent, into an update of its pending call, as the
// terminal prompt prints it and the window's dialog shows it. A check
// still running says nothing (most files have no server).
func (g *permissionGateway) Diagnostics(approvalID string, p protocol.ApprovalDiagnosticsPayload) {
	if p.State == "checking" {
		return
	}
	line := approval.DiagnosticsSummary(p)
	if line == "" {
		return
	}
	g.diagMu.Lock()
	if g.diag == nil {
		g.diag = map[string]string{}
	}
	g.diag[approvalID] = line
	req, asked := g.waiting[approvalID]
	g.diagMu.Unlock()
	if asked {
		g.s.send(context.Background(), sdk.UpdateToolCall(sdk.ToolCallId(req.CallID),
			sdk.WithUpdateContent(requestContent(req, line))))
	}
}

// asking marks req as waiting for the editor (nil: it was answered) and
// returns its diagnostics line so far.
func (g *permissionGateway) asking(req approval.Request, waiting bool) string {
	g.diagMu.Lock()
	defer g.diagMu.Unlock()
	if g.waiting == nil {
		g.waiting = map[string]approval.Request{}
	}
	if !waiting {
		delete(g.waiting, req.ApprovalID)
		delete(g.diag, req.ApprovalID)
		return ""
	}
	g.waiting[req.ApprovalID] = req
	return g.diag[req.ApprovalID]
}

// Ask implements approval.Gateway.
func (g *permissionGateway) Ask(ctx context.Context, req approval.Request) (protocol.Decision, error) {
	g.s.flush() // the call's tool_call goes out before the question
	if req.Announce != nil {
		req.Announce()
	}
	return g.ask(ctx, req)
}

func (g *permissionGateway) ask(ctx context.Context, req approval.Request) (protocol.Decision, error) {
	options := []sdk.PermissionOption{{OptionId: optAllowOnce, Name: "Allow once", Kind: sdk.PermissionOptionKindAllowOnce}}
	if req.Rule != nil {
		// The same exact scope the window's dialog offers.
		options = append(options, sdk.PermissionOption{OptionId: optAllowAlways,
			Name: "Always allow in this workspace: " + req.Rule.Summary, Kind: sdk.PermissionOptionKindAllowAlways})
	}
	options = append(options, sdk.PermissionOption{OptionId: optRejectOnce, Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce})
	// The call keeps the title of its tool_call; the question adds what
	// the dry run shows.
	line := g.asking(req, true)
	defer g.asking(req, false)
	call := sdk.ToolCallUpdate{ToolCallId: sdk.ToolCallId(req.CallID), Status: sdk.Ptr(sdk.ToolCallStatusPending),
		Content: requestContent(req, line), Locations: previewLocations(g.s.ws.Root(), req.Preview)}
	resp, err := g.s.a.peer().RequestPermission(ctx, sdk.RequestPermissionRequest{
		SessionId: sdk.SessionId(g.sessionID), ToolCall: call, Options: options})
	switch {
	case ctx.Err() != nil:
		return protocol.Decision{}, ctx.Err()
	case err != nil:
		// The editor answered with an error: the call does not run.
		return protocol.Decision{Kind: protocol.DecisionReject, Note: "the editor could not ask: " + err.Error()}, nil
	case resp.Outcome.Cancelled != nil:
		// The editor cancelled the prompt (session/cancel may still be on
		// its way): stop the turn, so the call ends as cancelled.
		g.s.rt.Cancel()
		<-ctx.Done()
		return protocol.Decision{}, ctx.Err()
	case resp.Outcome.Selected == nil:
		return protocol.Decision{Kind: protocol.DecisionReject, Note: "the editor gave no answer"}, nil
	}
	var d protocol.Decision
	switch string(resp.Outcome.Selected.OptionId) {
	case optAllowOnce:
		d = protocol.Decision{Kind: protocol.DecisionOnce}
	case optAllowAlways:
		if req.Rule == nil {
			return protocol.Decision{Kind: protocol.DecisionReject, Note: "the editor chose an option it was not offered"}, nil
		}
		// A standing rule for this workspace (the session's only when the
		// host cannot save one).
		d = protocol.Decision{Kind: protocol.DecisionAlways, Scope: "workspace"}
	case optRejectOnce:
		return protocol.Decision{Kind: protocol.DecisionReject, Note: rejectedNote}, nil
	default:
		return protocol.Decision{Kind: protocol.DecisionReject,
			Note: "the editor chose an unknown option " + string(resp.Outcome.Selected.OptionId)}, nil
	}
	g.s.send(context.WithoutCancel(ctx), sdk.UpdateToolCall(sdk.ToolCallId(req.CallID),
		sdk.WithUpdateStatus(sdk.ToolCallStatusInProgress)))
	return d, nil
}

// requestContent is what a permission request shows: what the user's
// hooks said about the call (an ask names the hook; a rewrite says the
// call shown is the hook's), then the preview.
func requestContent(req approval.Request, diagnostics string) []sdk.ToolCallContent {
	var out []sdk.ToolCallContent
	if lines := approval.HookLines(req.Hooks, req.Rewrite); len(lines) > 0 {
		out = append(out, sdk.ToolContent(sdk.TextBlock(strings.Join(lines, "\n"))))
	}
	return append(out, previewContent(req.Preview, diagnostics)...)
}
