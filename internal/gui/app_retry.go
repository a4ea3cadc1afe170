package gui

import (
	"context"
	"errors"

	"gatehouse/internal/agent"
	"gatehouse/internal/protocol"
)

// Retry sends the last turn's message again, its pictures too, as a new
// turn that replaces the last one in the model's history: the model is
// not sent the retried turn's messages (the transcript keeps showing them).
// It fails while a turn runs or before there is a turn.
func (a *App) Retry() (SubmitResult, error) {
	s := a.currentSession()
	if s == nil {
		return SubmitResult{}, errNoSession
	}
	snap := s.Snapshot()
	if snap.TurnID != "" {
		return SubmitResult{}, errors.New("a turn is running; retry once it has stopped")
	}
	var last *protocol.TranscriptItem
	for i := len(snap.Transcript) - 1; i >= 0 && last == nil; i-- {
		if snap.Transcript[i].Kind == protocol.ItemUser {
			last = &snap.Transcript[i]
		}
	}
	if last == nil {
		return SubmitResult{}, errors.New("there is no turn to retry")
	}
	p := agent.Prompt{Text: last.Text, Replaces: last.TurnID}
	if len(last.Images) > 0 {
		ims, err := a.attacher().Prompt(context.Background(), last.Images)
		if err != nil {
			return SubmitResult{}, err
		}
		p.Images = ims
	}
	queued, err := s.SubmitPrompt(p)
	return SubmitResult{Queued: queued}, err
}
