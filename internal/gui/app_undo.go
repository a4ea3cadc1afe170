package gui

import (
	"errors"

	"gatehouse/internal/checkpoint"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
)

func (a *App) undoSession() (*runtime.Session, error) {
	s := a.currentSession()
	if s == nil {
		return nil, errors.New("no session is open")
	}
	return s, nil
}

// UndoUnits lists the turns and undos of the current session that changed
// files, oldest first.
func (a *App) UndoUnits() ([]string, error) {
	s, err := a.undoSession()
	if err != nil {
		return nil, err
	}
	units, err := s.UndoUnits()
	out := make([]string, len(units))
	for i, u := range units {
		out[i] = string(u)
	}
	return out, err
}

// UndoPlan shows what undoing unit (a turn id, or an undo) would do to
// each file: what the turn did, what changed since, what undo writes.
func (a *App) UndoPlan(unit string) ([]protocol.UndoFile, error) {
	s, err := a.undoSession()
	if err != nil {
		return nil, err
	}
	return s.UndoPlan(checkpoint.Unit(unit))
}

// Undo restores the files and hunks sel picks of unit, with the user's
// choice for each file changed since.
func (a *App) Undo(unit string, sel protocol.UndoSelection) (protocol.UndoAppliedPayload, error) {
	s, err := a.undoSession()
	if err != nil {
		return protocol.UndoAppliedPayload{}, err
	}
	return s.Undo(checkpoint.Unit(unit), sel)
}

// RevertFile brings one file back to its content before the session
// changed it (the file tree's badge menu, a tool card).
func (a *App) RevertFile(path string, restoreChanged bool) (protocol.UndoAppliedPayload, error) {
	s, err := a.undoSession()
	if err != nil {
		return protocol.UndoAppliedPayload{}, err
	}
	return s.RevertFile(path, restoreChanged)
}
