package gui

import (
	"errors"

	"gatehouse/internal/agent"
)

// Compact replaces the older turns by a checkpoint summary in what the
// model is sent (the chat's button and /compact); the transcript keeps them.
func (a *App) Compact() error {
	if s := a.currentSession(); s != nil {
		return s.Compact()
	}
	return agent.ErrNothingToCompact
}

// UndoCompact undoes the last compaction, before the next turn.
func (a *App) UndoCompact() error {
	if s := a.currentSession(); s != nil {
		return s.UndoCompact()
	}
	return errors.New("there is no compaction to undo")
}
