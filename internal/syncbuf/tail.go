package syncbuf

import (
	"strings"
	"sync"
)

// Tail keeps the last bytes written to it, at most its bound: a child
// server's stderr, whose last lines say why it failed. Safe for concurrent
// use; a write never fails and never blocks on a reader.
type Tail struct {
	mu  sync.Mutex
	buf []byte
	max int
}

// NewTail returns a Tail that keeps the last max bytes.
func NewTail(max int) *Tail { return &Tail{max: max} }

// Write appends p, dropping the oldest bytes past the bound.
func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	return len(p), nil
}

// Lines returns up to the n last lines that are not blank, oldest first,
// without their line ends ("\r\n" included). The first may be the cut end
// of a longer line.
func (t *Tail) Lines(n int) []string {
	t.mu.Lock()
	s := string(t.buf)
	t.mu.Unlock()
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) != "" {
			keep = append(keep, strings.TrimRight(l, "\r"))
		}
	}
	if len(keep) > n {
		keep = keep[len(keep)-n:]
	}
	return keep
}

// Reset forgets everything written (a server restarted).
func (t *Tail) Reset() {
	t.mu.Lock()
	t.buf = t.buf[:0]
	t.mu.Unlock()
}
