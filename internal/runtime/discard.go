package runtime

import "gatehouse/internal/checkpoint"

// RecordDiscard runs change, the user's discard of work in paths
// (workspace-relative), with each file's content kept before it in the
// undo store, as a unit "discard-<n>" that undo takes back like a turn.
// Without an undo store it refuses and changes nothing.
func (s *Session) RecordDiscard(paths []string, change func() error) (checkpoint.Unit, error) {
	if s.undo == nil {
		return "", ErrNoUndo
	}
	return s.undo.Record("discard", checkpoint.ByDiscard, paths, change)
}
