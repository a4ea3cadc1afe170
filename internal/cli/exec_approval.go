package cli

import (
	"context"
	"io"
	"os"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
)

// terminalGateway is how exec asks (runtime.Options.Gateway): safe and
// manual ask on the terminal when stdin and stderr are both one, so --json
// stdout stays clean; without a terminal every call that needs approval is
// rejected, and the turn ends as blocked_by_approval with nothing changed.
// auto never asks (the workspace boundary still holds).
func terminalGateway(stdin io.Reader, stderr io.Writer) func(string, approval.Publisher) approval.Gateway {
	return func(sessionID string, pub approval.Publisher) approval.Gateway {
		in, _ := stdin.(*os.File)
		out, _ := stderr.(*os.File)
		return announcing{pub: pub, sessionID: sessionID, gw: approval.HeadlessGateway(in, out)}
	}
}

// announcing publishes each request and its answer as the window's gateway
// does (approval.requested, then exactly one approval.resolved), so --json
// readers see why a call waited or was rejected.
type announcing struct {
	pub       approval.Publisher
	sessionID string
	gw        approval.Gateway
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
	a.pub.Publish(protocol.Event{SessionID: a.sessionID, TurnID: turnID, Type: t, Payload: payload})
}
