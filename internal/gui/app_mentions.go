package gui

import (
	"context"
	"errors"
	"sort"
	"sync"
	"time"

	"gatehouse/internal/mention"
	"gatehouse/internal/session"
	"gatehouse/internal/workspace"
)

// MentionCandidate is one entry of the composer's @ picker: what the
// message carries (a path, a folder ending in /, session:ID) and what the
// picker and the chip show.
type MentionCandidate struct {
	Mention string `json:"mention"`
	Label   string `json:"label"`
	// Server names the MCP server of a resource (Detail: its URI).
	Server string `json:"server,omitempty"`
	Detail string `json:"detail,omitempty"`
	// Refused, when set, says why the user's policy refuses this mention
	// (the query names a denied path exactly): the composer shows it and
	// does not offer the path.
	Refused string `json:"refused,omitempty"`
}

// maxSessionDigest caps what an @-mention of a session attaches.
const maxSessionDigest = 32 << 10

// MentionCandidates lists what query matches, best first: the earlier
// sessions of this workspace whose title matches (at most 5), then the
// workspace's files and folders (folders end in /), then the MCP servers'
// resources (app_resources.go). Ignored files and secrets are left out, as
// for the model.
func (a *App) MentionCandidates(query string) []MentionCandidate {
	a.mu.Lock()
	ws := a.ws
	a.mu.Unlock()
	out := []MentionCandidate{}
	if ws == nil {
		return out
	}
	type hit struct {
		info session.Info
		s    int
	}
	var hits []hit
	for _, s := range a.ListSessions() {
		if s.Current {
			continue
		}
		if sc, ok := mention.Match(s.Title, query); ok {
			hits = append(hits, hit{session.Info{ID: s.ID, Title: s.Title}, sc})
		} else if sc, ok := mention.Match("session", query); ok && query != "" {
			hits = append(hits, hit{session.Info{ID: s.ID, Title: s.Title}, sc + 5000})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].s < hits[j].s })
	if len(hits) > 5 {
		hits = hits[:5]
	}
	// A title that starts with or holds the query comes before the files;
	// one that only holds its letters in order, after them.
	var weak []MentionCandidate
	for _, h := range hits {
		c := MentionCandidate{Mention: mention.SessionPrefix + h.info.ID, Label: "Session: " + h.info.Title}
		if h.s < mention.Loose {
			out = append(out, c)
		} else {
			weak = append(weak, c)
		}
	}
	if why := mention.Refused(ws, query); why != "" {
		out = append(out, MentionCandidate{Mention: query, Label: query, Refused: why})
	}
	for _, p := range a.mentionIndex.get(ws, a.watchReady()).Search(query, 20) {
		out = append(out, MentionCandidate{Mention: p, Label: p})
	}
	out = append(out, a.resourceCandidates(query)...)
	out = append(out, weak...)
	return out
}

// sessionDigest is what mentioning saved session id of the workspace
// attaches (session.Digest).
func (a *App) sessionDigest(id string) (string, error) {
	store := a.kit.Sessions()
	ws := a.workspaceRoot()
	if store == nil || ws == "" {
		return "", errors.New("sessions are not saved")
	}
	l, err := store.Load(ws, id)
	if err != nil {
		return "", err
	}
	return session.Digest(l, maxSessionDigest), nil
}

// mentionTTL is how long an @ index is searched before it is walked again
// when no change was heard (a watch that degraded hears none).
const mentionTTL = 30 * time.Second

// mentionIndex is the shown workspace's @ index: walked at the first query
// and again once the tree changed (a watch batch, forget) or after
// mentionTTL, so the list answers at the speed of typing on a big tree.
type mentionIndex struct {
	mu sync.Mutex
	ws *workspace.Workspace
	ix *mention.Index
	at time.Time
}

// get is ws's index, walked again when stale. watched says whether the
// workspace's watch has walked its tree: before that a file made after
// this walk would be in the watch's first listing, not in a batch, and no
// batch would ever tell the index, so the index is kept only once the
// watch listens.
func (m *mentionIndex) get(ws *workspace.Workspace, watched bool) *mention.Index {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.ws != ws || m.ix == nil || time.Since(m.at) > mentionTTL {
		ix := mention.Walk(context.Background(), ws)
		if !watched {
			m.ix = nil
			return ix
		}
		m.ws, m.ix, m.at = ws, ix, time.Now()
	}
	return m.ix
}

// watchReady says whether the shown workspace's watch has walked its tree
// and hears its changes. With no watch (it could not start) it is true: the
// index is then walked again after mentionTTL, as for a watch that hears
// nothing.
func (a *App) watchReady() bool {
	b := a.files.Load()
	if b == nil {
		return true
	}
	select {
	case <-b.Live().W.Ready():
		return true
	default:
		return false
	}
}

// forget makes the next query walk again.
func (m *mentionIndex) forget() {
	m.mu.Lock()
	m.ix = nil
	m.mu.Unlock()
}
