package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"gatehouse/internal/sandbox"
	"gatehouse/internal/supervisor/suptest"
	"gatehouse/internal/tools"
)

// TestAWorkspaceServerRunningBeforeADenyIsHeldByIt: a workspace's own
// server keeps the walls it started under, so one started before the user
// denied .env could read it for the rest of the session; the next call
// finds the walls moved and runs on a server started again under the new
// ones, which cannot read it.
func TestAWorkspaceServerRunningBeforeADenyIsHeldByIt(t *testing.T) {
	l := sandbox.Detect()
	if sandbox.ABI() < 1 || !l.Namespaces() {
		t.Skip("no namespaces here: Landlock alone cannot hide a workspace file from a server (sandbox.CannotHide)")
	}
	helper := suptest.Binary(t)
	ws := t.TempDir()
	secret := filepath.Join(ws, ".env")
	os.WriteFile(secret, []byte("API_TOKEN=sk-walls-secret\n"), 0o600)
	var denied atomic.Bool
	confine := func(dir string) Confinement {
		p := &sandbox.Policy{Writable: []string{dir}, Bwrap: l.Bwrap}
		if denied.Load() {
			p.DenyGlobs, p.DenyRead = []string{".env"}, []string{secret}
		}
		return Confinement{Helper: helper, Policy: p, Walls: p.Walls()}
	}
	e, _ := fakeEntry(t, "ws", "cat")
	e.Source = WorkspaceConfig
	starts := filepath.Join(ws, "starts")
	e.Config.Env = map[string]string{"FAKE_MODE": "cat", "FAKE_STARTS": starts}
	started := func() int { b, _ := os.ReadFile(starts); return strings.Count(string(b), "started") }
	m := newTestManager(t, Options{Workspace: ws, Confine: confine}, e)
	cat := func() string {
		t.Helper()
		for _, p := range m.Providers() {
			for _, tl := range p.Tools() {
				if strings.HasSuffix(tl.Spec().Name, "cat") {
					args, _ := json.Marshal(map[string]string{"text": secret})
					res, err := tl.(*Tool).Run(context.Background(), args)
					if err != nil {
						t.Fatal(err)
					}
					return string(res.Output)
				}
			}
		}
		t.Fatalf("no cat tool: %+v", m.Statuses())
		return ""
	}
	if got := cat(); !strings.Contains(got, "sk-walls-secret") {
		t.Fatalf("before the deny the server read %q", got)
	}
	if n := started(); n != 1 {
		t.Fatalf("%d starts before the deny", n)
	}
	denied.Store(true)
	if got := cat(); !strings.Contains(got, "cannot read") && got != "read: " {
		t.Fatalf("a server started before the deny read the denied file: %q", got)
	}
	if n := started(); n != 2 {
		t.Fatalf("%d starts after the deny, want 2", n)
	}
	if st := mustStatus(t, m, "ws"); st.State != StateReady {
		t.Fatalf("after the restart the server is %s: %s", st.State, st.Error)
	}
	// Walls that did not move restart nothing.
	cat()
	if n := started(); n != 2 {
		t.Fatalf("the server restarted with the walls unchanged: %d starts", n)
	}
}

var _ tools.Tool = (*Tool)(nil)
