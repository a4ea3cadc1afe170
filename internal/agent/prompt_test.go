package agent

import (
	"gatehouse/internal/instructions"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// promptWithin builds the prompt of dir, failing the test when it takes
// longer than a few seconds (a FIFO waits for a writer forever).
func promptWithin(t *testing.T, dir string) string {
	t.Helper()
	done := make(chan string, 1)
	go func() { done <- SystemPrompt(dir) }()
	select {
	case p := <-done:
		return p
	case <-time.After(30 * time.Second):
		t.Fatal("SystemPrompt did not return within 30 s")
		return ""
	}
}

func TestAgentsMDLinkedToEnvironIsNotRead(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-leak-7f3a9")
	dir := t.TempDir()
	if err := os.Symlink("/proc/self/environ", filepath.Join(dir, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	if p := promptWithin(t, dir); strings.Contains(p, "sk-leak-7f3a9") || strings.Contains(p, "AGENTS.md)") {
		t.Fatalf("the environment reached the prompt:\n%s", p)
	}
}

func TestAgentsMDLinkedOutsideIsNotRead(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(outside, []byte("private outside words"), 0o600)
	dir := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	if p := promptWithin(t, dir); strings.Contains(p, "private outside words") {
		t.Fatalf("a file outside the workspace reached the prompt:\n%s", p)
	}
	// A link inside the workspace is read as its target.
	os.Remove(filepath.Join(dir, "AGENTS.md"))
	os.WriteFile(filepath.Join(dir, "docs.md"), []byte("Inside words."), 0o644)
	os.Symlink("docs.md", filepath.Join(dir, "AGENTS.md"))
	if p := promptWithin(t, dir); !strings.Contains(p, "Inside words.") {
		t.Fatalf("a link inside the workspace was not followed:\n%s", p)
	}
}

func TestAgentsMDLinkedToDevZeroIsNotRead(t *testing.T) {
	dir := t.TempDir()
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "AGENTS.md")); err != nil {
		t.Fatal(err)
	}
	if p := promptWithin(t, dir); strings.Contains(p, "AGENTS.md)") || strings.ContainsRune(p, 0) {
		t.Fatalf("/dev/zero was read into the prompt (%d bytes)", len(p))
	}
}

func TestLongAgentsMDIsCut(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(strings.Repeat("x", instructions.MaxFileBytes+10)), 0o644)
	p := promptWithin(t, dir)
	if !strings.Contains(p, "cut here") || strings.Count(p, "x") > instructions.MaxFileBytes+100 {
		t.Fatal("a long AGENTS.md was not cut at the cap")
	}
}
