package gui

import (
	"context"

	"gatehouse/internal/mention"
)

// MentionCandidates lists the workspace's files and folders (folders end
// in /) matching query fuzzily, best first: the composer's @ picker.
// Ignored files and secrets are left out, as for the model.
func (a *App) MentionCandidates(query string) []string {
	a.mu.Lock()
	ws := a.ws
	a.mu.Unlock()
	if ws == nil {
		return []string{}
	}
	out := mention.Candidates(context.Background(), ws, query, 20)
	if out == nil {
		return []string{}
	}
	return out
}

// SubmitWithMentions sends text with the mentioned files (path, or
// path:10-40) and folders (path/) attached after it. A mention the
// workspace boundary refuses, or over the size cap, fails the send and
// says which.
func (a *App) SubmitWithMentions(text string, mentions []string) (SubmitResult, error) {
	a.mu.Lock()
	ws := a.ws
	a.mu.Unlock()
	if ws == nil {
		return SubmitResult{}, errNoSession
	}
	extra, err := mention.Attach(context.Background(), ws, mentions)
	if err != nil {
		return SubmitResult{}, err
	}
	return a.Submit(text + extra)
}
