// Package syncbuf holds buffers that goroutines may write at once: Buffer,
// a bytes.Buffer for a child process's stdout and stderr or a server's log
// read by its test, and Tail, the bounded last bytes of a server's stderr
// and its last lines.
package syncbuf

import (
	"bytes"
	"sync"
)

// Buffer collects what is written, safe for concurrent use. The zero value
// is empty and ready.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns what was written so far.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
