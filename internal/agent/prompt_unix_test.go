//go:build unix

package agent

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestAgentsMDAsFIFODoesNotHang(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "AGENTS.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := promptWithin(t, dir); strings.Contains(p, "AGENTS.md)") {
		t.Fatalf("a FIFO was read into the prompt:\n%s", p)
	}
}
