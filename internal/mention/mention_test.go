package mention

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/workspace"
)

func testWS(t *testing.T) *workspace.Workspace {
	t.Helper()
	root := t.TempDir()
	for p, c := range map[string]string{"src/main.go": "package main\n\nfunc main() {}\n", "src/util.go": "package main\n", "README.md": "hi\n",
		".gitignore": "build/\n", "build/out.bin": "x"} {
		full := filepath.Join(root, p)
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte(c), 0o644)
	}
	os.WriteFile(filepath.Join(filepath.Dir(root), "secret.txt"), []byte("top secret"), 0o644)
	ws, err := workspace.New(root, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func TestCandidates(t *testing.T) {
	ws := testWS(t)
	got := Candidates(context.Background(), ws, "src/ma", 5)
	if len(got) == 0 || got[0] != "src/main.go" {
		t.Errorf("src/ma → %v", got)
	}
	for _, p := range Candidates(context.Background(), ws, "", 50) {
		if strings.HasPrefix(p, "build") {
			t.Errorf("an ignored path was offered: %s", p)
		}
	}
	if got := Candidates(context.Background(), ws, "smg", 5); len(got) == 0 || got[0] != "src/main.go" {
		t.Errorf("fuzzy smg → %v", got)
	}
}

func TestAttach(t *testing.T) {
	ws := testWS(t)
	text, err := Attach(context.Background(), ws, []string{"src/main.go:3-3", "src/"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, `<file path="src/main.go" lines="3-3">`) || !strings.Contains(text, "func main() {}") || strings.Contains(text, "package main") {
		t.Errorf("range: %s", text)
	}
	if !strings.Contains(text, "src/util.go") {
		t.Errorf("folder: %s", text)
	}
}

// A mention outside the workspace is refused, and so the send fails.
func TestAttachRefusesOutsideTheWorkspace(t *testing.T) {
	ws := testWS(t)
	for _, m := range []string{"../secret.txt", filepath.Join(filepath.Dir(ws.Root()), "secret.txt"), "../"} {
		text, err := Attach(context.Background(), ws, []string{m}, nil)
		if err == nil || strings.Contains(text, "top secret") {
			t.Errorf("%s was attached: %q %v", m, text, err)
		}
	}
}
