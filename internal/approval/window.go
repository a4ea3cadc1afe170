package approval

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"

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

// SessionOf returns the session an approval id names; false when id is not
// one a gate makes.
func SessionOf(approvalID string) (string, bool) {
	rest, ok := strings.CutPrefix(approvalID, idPrefix)
	i := strings.LastIndexByte(rest, '-')
	if !ok || i <= 0 {
		return "", false
	}
	if _, err := strconv.ParseUint(rest[i+1:], 10, 64); err != nil {
		return "", false
	}
	return rest[:i], true
}

// Window is what one window may answer: the gateways of the sessions it
// owns, its session's and (once subagents exist) its child sessions'. The
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

func (w Window) gateway(approvalID string) (*GUI, error) {
	session, ok := SessionOf(approvalID)
	if !ok {
		return nil, fmt.Errorf("%q is not an approval id", approvalID)
	}
	for _, g := range w {
		if g != nil && g.sessionID == session {
			return g, nil
		}
	}
	return nil, fmt.Errorf("approval %s belongs to session %s, not to this window's session: it was not answered", approvalID, session)
}
