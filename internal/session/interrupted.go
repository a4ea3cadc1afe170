package session

import "gatehouse/internal/protocol"

// ErrorKindInterrupted is the errorKind of the stop item Interrupted makes.
const ErrorKindInterrupted = "interrupted"

// Interrupted returns a stop item for the last turn of items when they end
// inside it: the log of a session Gatehouse left mid-turn (it quit, crashed
// or the machine lost power) has the turn's finished items but no stop item.
// Resuming adds this one, so the turn shows as ended, with the reason, rather
// than as one that never finished. It returns false when the last turn has
// its stop item, and when there is no turn.
func Interrupted(items []protocol.TranscriptItem) (protocol.TranscriptItem, bool) {
	open := ""
	for _, it := range items {
		switch it.Kind {
		case protocol.ItemUser:
			open = it.TurnID
		case protocol.ItemStop:
			if it.TurnID == open {
				open = ""
			}
		}
	}
	if open == "" {
		return protocol.TranscriptItem{}, false
	}
	return protocol.TranscriptItem{
		Kind: protocol.ItemStop, TurnID: open, Reason: protocol.StopError, ErrorKind: ErrorKindInterrupted,
		Error: "Gatehouse closed before this turn finished; steps after the last one shown were not saved.",
		Usage: &protocol.Usage{},
	}, true
}
