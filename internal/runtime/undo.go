package runtime

import (
	"context"
	"errors"

	"gatehouse/internal/checkpoint"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// openCheckpoints starts recording the session's changes in store (nil:
// none), the commands' ones from the watcher's batches.
func (s *Session) openCheckpoints(store *checkpoint.Store) error {
	if store == nil {
		return nil
	}
	var base checkpoint.Baselines
	if s.files != nil {
		base = s.files.T
	}
	rec, err := checkpoint.NewRecorder(store, s.id, s.ws, base)
	if err != nil {
		return err
	}
	s.undo = rec
	if s.files != nil {
		s.unwatch = s.files.W.OnBatch(rec.Observe)
	}
	return nil
}

// ownerTurn is the turn a change made now belongs to for undo: the running
// turn of a main session; for a child, the turn it was started in.
func (s *Session) ownerTurn() string {
	if s.undoTurn != "" {
		return s.undoTurn
	}
	return s.TurnID()
}

// underTurn records the calls of a child's checkpoint stage under turn,
// the main session's, so its changes are undone with that turn.
func underTurn(turn string, mw tools.Middleware) tools.Middleware {
	return func(t tools.Tool, next tools.Handler) tools.Handler {
		h := mw(t, next)
		return func(ctx context.Context, call tools.Call) (tools.Result, error) {
			return h(tools.WithTurn(ctx, turn), call)
		}
	}
}

// ErrNoUndo is returned by the undo methods of a session without a store.
var ErrNoUndo = errors.New("this session keeps no checkpoints: undo is off")

// ErrTurnRunning refuses an undo while a turn runs: its tools could be
// writing the same files.
var ErrTurnRunning = errors.New("a turn is running: undo when it has stopped")

// UndoUnits lists the turns and undos of the session that changed files,
// in order.
func (s *Session) UndoUnits() ([]checkpoint.Unit, error) {
	if s.undo == nil {
		return nil, ErrNoUndo
	}
	return checkpoint.Units(s.undo.Changes()), nil
}

// UndoPlan says what undoing unit (a turn id, or an undo's unit) would do
// to each file it changed; it changes nothing.
func (s *Session) UndoPlan(unit checkpoint.Unit) ([]protocol.UndoFile, error) {
	if s.undo == nil {
		return nil, ErrNoUndo
	}
	plan, err := s.undoer().Plan(s.undo.Changes(), unit)
	out := make([]protocol.UndoFile, len(plan))
	for i, p := range plan {
		out[i] = p.UndoFile
	}
	return out, err
}

// Undo restores what sel picks of unit. The undo is recorded (in the undo
// store, as a unit that can itself be undone, and in the session log), and
// the model's next request names the files restored.
func (s *Session) Undo(unit checkpoint.Unit, sel checkpoint.Selection) (checkpoint.Outcome, error) {
	if err := s.canUndo(); err != nil {
		return checkpoint.Outcome{}, err
	}
	out, _, err := s.undoer().Apply(s.undo.Changes(), unit, sel, s.undo.Append)
	s.applied(out)
	return out, err
}

// applied tells the model's next request, the transcript and (through it)
// the session log about an undo.
func (s *Session) applied(out checkpoint.Outcome) {
	s.logger.Info("undo", "session", s.id, "of", out.Of, "restored", len(out.Restored), "skipped", len(out.Skipped))
	if len(out.Restored)+len(out.Skipped) == 0 {
		return
	}
	s.undo.Reverted(out.Restored...)
	s.pub.Publish(protocol.Event{SessionID: s.id, Type: protocol.UndoApplied, Payload: out})
	s.pub.Flush()
}

// RevertFile brings path back to its content before the session first
// changed it, as an undo of its own. A file changed since the session's last
// change of it is kept unless restoreChanged.
func (s *Session) RevertFile(path string, restoreChanged bool) (checkpoint.Outcome, error) {
	if err := s.canUndo(); err != nil {
		return checkpoint.Outcome{}, err
	}
	changes := s.undo.Changes()
	unit := checkpoint.Unit("file:" + path)
	var all []checkpoint.Change
	all = append(all, changes...)
	for _, c := range changes {
		if c.Path == path {
			c.Unit = unit
			all = append(all, c)
		}
	}
	sel := checkpoint.Selection{Choices: map[string]checkpoint.Choice{}}
	if restoreChanged {
		sel.Choices[path] = checkpoint.Restore
	}
	out, _, err := s.undoer().Apply(all, unit, sel, s.undo.Append)
	s.applied(out)
	return out, err
}

func (s *Session) canUndo() error {
	switch {
	case s.undo == nil:
		return ErrNoUndo
	case s.ctrl.Running():
		return ErrTurnRunning
	}
	return nil
}

func (s *Session) undoer() checkpoint.Undoer {
	return checkpoint.Undoer{Store: s.undo.Store(), Session: s.id, WS: s.ws}
}
