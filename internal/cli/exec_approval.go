package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"gatehouse/internal/approval"
	"gatehouse/internal/events"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// gateHost is what exec's approval gateway works with. stdin, stderr and
// ws are set when approvalGate is called; bus, log and sessionID just
// before the turn starts (log is nil when the session is not saved), so
// the gate reads them at call time.
type gateHost struct {
	stdin  io.Reader
	stderr io.Writer
	// ws is the boundary the shell analysis checks paths against.
	ws *workspace.Workspace
	// bus carries approval.requested / approval.resolved to the output.
	bus       *events.Bus
	sessionID string
	// log is where decisions and rules are written (session.RecordDecision,
	// session.RecordRule).
	log *session.Log
}

// approvalGate returns the middleware that decides on each call in mode;
// list it last in the router's chain. It is the one place the approval
// gate plugs into exec; an error is a usage error (exit 2).
//
// auto adds nothing (nothing asks; the workspace boundary still holds).
// safe and manual ask on the terminal when stdin and stderr are both one,
// so --json stdout stays clean; without a terminal every call that needs
// approval is rejected, and the turn ends as blocked_by_approval with
// nothing changed.
func approvalGate(mode string, host *gateHost) ([]tools.Middleware, error) {
	m, err := approval.ParseMode(mode)
	if err != nil {
		return nil, fmt.Errorf("unknown --approval %q: use auto, safe or manual", mode)
	}
	if m == approval.Auto {
		return nil, nil
	}
	in, _ := host.stdin.(*os.File)
	out, _ := host.stderr.(*os.File)
	gate := approval.New(approval.Config{
		Mode:      func() approval.Mode { return m },
		Gateway:   announcing{host: host, gw: approval.HeadlessGateway(in, out)},
		Workspace: host.ws,
		Hook:      host.record,
	})
	return []tools.Middleware{gate.Middleware}, nil
}

// record writes a decision or rule change to the session log.
func (h *gateHost) record(r approval.Record) {
	if h.log == nil {
		return
	}
	typ := session.RecordRule
	if r.Kind == approval.RecordDecision {
		typ = session.RecordDecision
	}
	if err := h.log.Append(typ, r); err != nil {
		fmt.Fprintln(h.stderr, "gatehouse exec: the session log:", err)
	}
}

// announcing publishes each request and its answer as the window's gateway
// does (approval.requested, then exactly one approval.resolved), so --json
// readers see why a call waited or was rejected.
type announcing struct {
	host *gateHost
	gw   approval.Gateway
}

func (a announcing) Ask(ctx context.Context, req approval.Request) (protocol.Decision, error) {
	a.publish(req.TurnID, protocol.ApprovalRequested, req.Payload())
	d, err := a.gw.Ask(ctx, req)
	resolved := d
	if err != nil {
		resolved = protocol.Decision{Kind: protocol.DecisionReject, Note: "the turn was cancelled"}
	}
	a.publish(req.TurnID, protocol.ApprovalResolved, protocol.ApprovalResolvedPayload{ApprovalID: req.ApprovalID, Decision: resolved})
	return d, err
}

func (a announcing) publish(turnID string, t protocol.EventType, payload any) {
	if a.host.bus != nil {
		a.host.bus.Publish(protocol.Event{SessionID: a.host.sessionID, TurnID: turnID, Type: t, Payload: payload})
	}
}
