package gui

import (
	"context"

	"gatehouse/internal/mention"
	"gatehouse/internal/protocol"
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

// SubmitMessage sends what the composer holds as one message: text, the
// mentioned files, ranges and folders attached after it, and the pictures.
// A mention the workspace boundary refuses, or over the size cap, fails
// the send and says which; a picture the model cannot see fails it too.
// Nothing is sent then.
func (a *App) SubmitMessage(text string, mentions []string, images []protocol.ImageRef) (SubmitResult, error) {
	if len(mentions) > 0 {
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
		text += extra
	}
	return a.SubmitWithImages(text, images)
}
