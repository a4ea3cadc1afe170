package main

import (
	"errors"
	"path/filepath"

	"gatehouse/internal/checkpoint"
	"gatehouse/internal/cli"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
)

// checkpointsLocked is the undo store, opened on first use in the
// sessions' data folder; nil when sessions are not saved. a.mu is held.
func (a *App) checkpointsLocked() *checkpoint.Store {
	if a.undoStore == nil && a.sessions != nil {
		st, err := checkpoint.Open(cli.CheckpointDir(filepath.Clean(a.sessions.Dir())), a.effective().Settings.UndoStoreBytes())
		if err != nil {
			a.log.Warn("undo is off: the checkpoint store did not open", "err", err)
			return nil
		}
		a.undoStore = st
	}
	return a.undoStore
}

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
