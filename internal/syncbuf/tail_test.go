package syncbuf

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestTailKeepsTheLastLinesWithinItsBound(t *testing.T) {
	tl := NewTail(32)
	fmt.Fprint(tl, "first line that will be dropped\n\n  \r\n")
	fmt.Fprint(tl, "  indented\r\nerror: boom\n")
	// 32 bytes keep the cut end ("ed") of the first line.
	if got := tl.Lines(5); !slices.Equal(got, []string{"ed", "  indented", "error: boom"}) {
		t.Errorf("lines %q", got)
	}
	if got := tl.Lines(1); !slices.Equal(got, []string{"error: boom"}) {
		t.Errorf("last line %q", got)
	}
	tl.Reset()
	if got := tl.Lines(3); len(got) != 0 {
		t.Errorf("after Reset: %q", got)
	}
}

// Writers racing each other and a reader keep the bound and lose no write
// call's count.
func TestTailConcurrentWrites(t *testing.T) {
	tl := NewTail(100)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 200 {
				if n, err := fmt.Fprintf(tl, "w%d %d\n", i, j); err != nil || n == 0 {
					t.Errorf("write: %d %v", n, err)
				}
				tl.Lines(2)
			}
		})
	}
	wg.Wait()
	tl.mu.Lock()
	size := len(tl.buf)
	tl.mu.Unlock()
	if size > 100 {
		t.Errorf("%d bytes kept, over the bound", size)
	}
	if got := tl.Lines(1); len(got) != 1 || !strings.HasPrefix(got[0], "w") {
		t.Errorf("last line %q", got)
	}
}
