//go:build !unix

package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/sandbox"
)

// TestWorkspaceServerRefusesWithoutTheHelper: where the supervisor helper
// does not run, a server from the workspace's own list does not start, even
// when the app hands it a helper and a policy: it fails with the reason,
// and never runs unconfined.
func TestWorkspaceServerRefusesWithoutTheHelper(t *testing.T) {
	prog, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	confine := func(string) Confinement {
		return Confinement{Helper: prog, Policy: &sandbox.Policy{Writable: []string{ws}}}
	}
	m := newTestManager(t, Options{Workspace: ws, Confine: confine},
		Entry{Name: "planted", Source: WorkspaceConfig, Config: ServerConfig{Command: prog, Args: []string{"-test.run=^$"}}})
	st := mustStatus(t, m, "planted")
	if st.State != StateFailed || !strings.Contains(st.Error, "supervisor helper does not run on this platform") {
		t.Fatalf("state %s: %q", st.State, st.Error)
	}
}
