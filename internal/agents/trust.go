package agents

import (
	"errors"
	"sort"

	"gatehouse/internal/trust"
)

// WorkspaceTrust is LoadOptions.Trusted backed by folder trust: a
// workspace's definitions load only while its .gatehouse/agents/, as it is
// now, is trusted in ts (trust.KindAgents), and from the very bytes whose
// hash was trusted. A folder without definitions, or one the trust store
// cannot read, is not trusted.
func WorkspaceTrust(ts *trust.Store) func(workspace string) *trust.Content {
	return func(ws string) *trust.Content { return ts.Loadable(ws, trust.KindAgents) }
}

// PendingFile is one file of a workspace's .gatehouse/agents/ as the trust
// prompt shows it: the definition it holds, or why it is none.
type PendingFile struct {
	// Path is workspace-relative, with slashes.
	Path       string      `json:"path"`
	Definition *Definition `json:"definition,omitempty"`
	Error      string      `json:"error,omitempty"`
}

// Pending is a workspace's agent definitions waiting for the user's trust.
type Pending struct {
	// Hash identifies the content shown; Trust records exactly it.
	Hash  string        `json:"hash"`
	Files []PendingFile `json:"files"`
}

// PendingTrust returns what the workspace's .gatehouse/agents/ holds when
// it is not trusted as it is now (never trusted, or changed since); nil
// when there is nothing to ask. Files that are refused (a symbolic link, a
// FIFO) are listed with why; they never load. With only refused files the
// Hash is "" and there is nothing to trust.
func PendingTrust(ts *trust.Store, ws string) (*Pending, error) {
	c, err := ts.Waiting(ws, trust.KindAgents)
	if c == nil {
		return nil, err
	}
	p := &Pending{Hash: c.Hash}
	for _, rel := range c.Files {
		f := PendingFile{Path: rel}
		if !isDefinitionFile(rel) {
			f.Error = "not a definition (only .gatehouse/agents/*.md are read)"
		} else if d, err := Parse(rel, c.Data[rel]); err != nil {
			f.Error = err.Error()
		} else {
			f.Definition = &d
		}
		p.Files = append(p.Files, f)
	}
	for _, r := range c.Refused {
		p.Files = append(p.Files, PendingFile{Path: r.Path, Error: "refused: " + r.Reason})
	}
	sort.Slice(p.Files, func(i, j int) bool { return p.Files[i].Path < p.Files[j].Path })
	return p, nil
}

// ErrChanged: the definitions changed after the prompt showed them.
var ErrChanged = errors.New("the workspace's agent definitions changed since they were shown; look at them again")

// TrustWorkspace records the user's trust in the workspace's definitions
// as shown (hash, from Pending); content that changed meanwhile is not
// trusted and ErrChanged returned.
func TrustWorkspace(ts *trust.Store, ws, hash string) error {
	err := ts.TrustShown(ws, trust.KindAgents, hash)
	if errors.Is(err, trust.ErrChanged) {
		return ErrChanged
	}
	return err
}

// Check loads the session's definitions again (a definition changed since
// it was trusted stops being offered) and returns what waits for trust.
func (m *Manager) Check(ts *trust.Store, o HostOptions) (*Pending, []error) {
	errs := m.Reload(o)
	p, err := PendingTrust(ts, m.parent.Workspace().Root())
	if err != nil {
		errs = append(errs, err)
	}
	return p, errs
}

// Trust records trust in the session's workspace definitions as shown
// (hash) and offers them from the next model request on; the definitions
// that do not parse come back beside it.
func (m *Manager) Trust(ts *trust.Store, o HostOptions, hash string) ([]error, error) {
	if err := TrustWorkspace(ts, m.parent.Workspace().Root(), hash); err != nil {
		return nil, err
	}
	return m.Reload(o), nil
}
