package runtime

import (
	"unicode/utf8"

	"gatehouse/internal/proc"
)

// ProcessText is a page of a process's output as text, for a terminal view.
type ProcessText struct {
	proc.Logs
	// Text is the page's output; a character cut at the page's end is left
	// for the next page, which starts at NextOffset.
	Text string
}

// ProcessText reads process id's output from offset (negative: the last
// -offset bytes), at most limit bytes, as text.
func (s *Session) ProcessText(id string, offset int64, limit int) (ProcessText, error) {
	l, err := s.procs.Logs(id, offset, limit)
	if err != nil {
		return ProcessText{}, err
	}
	data := l.Content
	for cut := 0; cut < utf8.UTFMax && len(data) > 0 && !utf8.Valid(data); cut++ {
		data = data[:len(data)-1]
	}
	l.NextOffset = l.Offset + int64(len(data))
	return ProcessText{Logs: l, Text: string(data)}, nil
}
