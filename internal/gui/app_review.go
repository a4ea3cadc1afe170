package gui

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	"gatehouse/internal/atomicfile"
	"gatehouse/internal/checkpoint"
	"gatehouse/internal/export"
	"gatehouse/internal/gitview"
	"gatehouse/internal/review"
	"gatehouse/internal/trust"
	"gatehouse/internal/workspace"
)

// reviewTimeout bounds one review (the reviewer's turn and its calls).
const reviewTimeout = 20 * time.Minute

// ReviewChanges has the reviewer agent review target (the uncommitted or
// staged changes, the branch against a base, a commit, or one turn of the
// open session) as a child of the open session: its calls pass the
// session's gate, rules and budget. The report holds the diff and the
// findings anchored to its hunks. A turn's diff is what it wrote, from the
// session's undo store (git is not needed).
func (a *App) ReviewChanges(target gitview.Target) (review.Report, error) {
	if err := target.Validate(); err != nil {
		return review.Report{}, err
	}
	s, err := a.session()
	if err != nil {
		return review.Report{}, err
	}
	m, err := a.manager()
	if err != nil {
		return review.Report{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), reviewTimeout)
	defer cancel()
	if target.Kind == gitview.TargetTurn {
		plan, err := s.UndoPlan(checkpoint.Unit(target.Ref))
		if err != nil {
			return review.Report{}, err
		}
		d := review.TurnDiff(plan)
		return review.Run(ctx, review.Options{Agents: m, Target: target, Diff: &d})
	}
	repo, err := gitview.Open(ctx, a.workspaceRoot(), nil)
	if err != nil {
		return review.Report{}, err
	}
	repo.Trusted = gitview.TrustedBy(trust.NewStore(a.store.Dir()), repo.Main)
	return review.Run(ctx, review.Options{Agents: m, Repo: repo, Target: target})
}

// ReviewRefresh marks the findings whose lines changed since the review
// outdated (and moves those whose lines only moved), reading the
// workspace's files as they are now through its boundary.
func (a *App) ReviewRefresh(findings []review.Finding) ([]review.Finding, error) {
	a.mu.Lock()
	ws := a.ws
	a.mu.Unlock()
	if ws == nil {
		return nil, errNoSession
	}
	return review.Refresh(findings, func(p string) ([]byte, error) {
		abs, err := ws.Resolve(p, workspace.Read)
		if err != nil {
			return nil, err
		}
		return os.ReadFile(abs)
	}), nil
}

// ExportRequest is the Sessions menu's export dialog.
type ExportRequest struct {
	// SessionID is a saved session of the workspace ("": the open one).
	SessionID string `json:"sessionId"`
	// Format is md or html.
	Format string `json:"format"`
	// Turns is "A-B", "A-" or "A" ("": every turn).
	Turns string `json:"turns"`
	// EmbedImages puts the pictures in the file; otherwise they are listed.
	EmbedImages bool `json:"embedImages"`
}

// ExportSession writes the session as the dialog asked into the data
// folder's exports/ and returns the file's path. Secrets are masked (the
// API key, secret-named variables of the app's environment, token shapes).
func (a *App) ExportSession(r ExportRequest) (string, error) {
	store := a.kit.Sessions()
	root := a.workspaceRoot()
	if store == nil || root == "" {
		return "", errors.New("sessions are not saved")
	}
	id := r.SessionID
	if id == "" {
		s := a.currentSession()
		if s == nil {
			return "", errNoSession
		}
		id = s.ID()
		_ = s.FlushLog()
	}
	if r.Format != export.Markdown && r.Format != export.HTML && r.Format != export.JSONLines {
		return "", errors.New("choose Markdown, HTML or JSON Lines")
	}
	o := export.Options{Format: r.Format, EmbedImages: r.EmbedImages, Image: a.imageStore().Get,
		Mask: export.NewMasker([]string{a.effective().APIKey.Reveal()}, os.Environ())}
	var err error
	if o.From, o.To, err = export.ParseTurns(r.Turns); err != nil {
		return "", err
	}
	l, err := store.Load(root, id)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if err := export.Write(&b, l, o); err != nil {
		return "", err
	}
	path := filepath.Join(a.kit.Env().DataDir, "exports", id+"."+r.Format)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", err
	}
	return path, atomicfile.Write(path, b.Bytes(), 0o600)
}
