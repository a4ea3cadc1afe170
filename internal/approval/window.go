package approval

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"

	"gatehouse/internal/protocol"
)

// An approval id names the session whose gate made it,
// "approval-<session id>-<n>", so ids are unique across sessions and an
// answer can be checked against the sessions a window owns. A gate whose
// gateway names no session uses a random name of its own.
const idPrefix = "approval-"

func approvalID(session string, n uint64) string {
	return idPrefix + session + "-" + strconv.FormatUint(n, 10)
}

// gateSession is the session named in a gate's approval ids: the
// gateway's, when it has a SessionID method (GUI does), else a random one.
func gateSession(gw Gateway) string {
	if s, ok := gw.(interface{ SessionID() string }); ok && s.SessionID() != "" {
		return s.SessionID()
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	return "gate" + hex.EncodeToString(b[:])
}

// Window is what one window may answer: the gateways of the sessions it
// owns. A subagent's child session shares its parent's gate (its requests
// carry the parent's session id and reach the parent's gateway), so the
// window's session covers its children with no entry of their own. The
// ResolveApproval and RepreviewApproval bindings go through it, so an answer
// meant for a request of another session (an earlier session's dialog, a
// stale page) is refused with an error that says so, and never reaches a
// request of this session.
type Window []*GUI

// Owned returns the window that owns the sessions of gws.
func Owned(gws ...*GUI) Window { return Window(gws) }

// Resolve answers the request approvalID (GUI.Resolve) when it belongs to
// one of the window's sessions; otherwise it fails and changes nothing.
func (w Window) Resolve(approvalID string, d protocol.Decision) error {
	g, err := w.gateway(approvalID)
	if err != nil {
		return err
	}
	return g.Resolve(approvalID, d)
}

// Repreview re-prepares the request approvalID (GUI.Repreview) when it
// belongs to one of the window's sessions; otherwise it fails.
func (w Window) Repreview(approvalID string) error {
	g, err := w.gateway(approvalID)
	if err != nil {
		return err
	}
	return g.Repreview(approvalID)
}

// Recheck has the language servers check the part sel of the request
// approvalID (GUI.Recheck) when it belongs to one of the window's
// sessions; otherwise it fails.
func (w Window) Recheck(approvalID string, sel protocol.ProposalSelection) error {
	g, err := w.gateway(approvalID)
	if err != nil {
		return err
	}
	return g.Recheck(approvalID, sel)
}

// gateway is the one of w's gateways where approvalID waits: an answer is
// routed by (session, id), the id looked up among the requests of the
// window's sessions, never parsed.
func (w Window) gateway(approvalID string) (*GUI, error) {
	for _, g := range w {
		if g != nil && g.waiting(approvalID) {
			return g, nil
		}
	}
	return nil, fmt.Errorf("approval %s is not waiting in this window's session (answered, cancelled, or asked by another session): it was not answered", approvalID)
}
