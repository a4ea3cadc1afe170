package gitview

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gatehouse/internal/settings"
)

type host struct {
	mu sync.Mutex
	ws string
	// closed are the folders CloseFolder was called with, and whether each
	// still existed then.
	closed []string
}

func (h *host) close(d string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, err := os.Stat(d); err == nil {
		h.closed = append(h.closed, d)
	} else {
		h.closed = append(h.closed, d+" (already removed)")
	}
}

func (h *host) get() string        { h.mu.Lock(); defer h.mu.Unlock(); return h.ws }
func (h *host) set(d string) error { h.mu.Lock(); defer h.mu.Unlock(); h.ws = d; return nil }

func newService(t *testing.T, dir string) (*Service, *host) {
	t.Helper()
	h := &host{ws: dir}
	st := settings.NewStore(t.TempDir())
	return NewService(Host{Workspace: h.get, Settings: st, SwitchWorkspace: h.set, CloseFolder: h.close,
		Keep: func() (Keep, error) { return noKeep, nil }}), h
}

// A worktree session from the window: made beside the repository and
// opened, its commit reviewed against its base, merged, then discarded,
// with the window back in the main worktree.
func TestServiceWorktreeSessionFromStartToEnd(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": lines20(nil), ".gitignore": ".env\n"})
	g.write(".env", "KEY=1\n")
	s, h := newService(t, g.dir)
	if err := s.SetWorktreeCopy([]string{" .env ", ""}); err != nil {
		t.Fatal(err)
	}
	w, err := s.NewWorktreeSession("feat")
	if err != nil {
		t.Fatal(err)
	}
	if h.get() != w.Path || filepath.Dir(w.Path) != g.dir+".worktrees" {
		t.Fatalf("workspace %q, worktree %+v", h.get(), w)
	}
	if b, _ := os.ReadFile(filepath.Join(w.Path, ".env")); string(b) != "KEY=1\n" {
		t.Fatal(".env was not copied")
	}
	v, _ := s.GitChanges()
	if err := s.GitTrustSettings(v.Settings.Hash); err != nil { // the main worktree's .git/config
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(w.Path, "a.txt"), []byte(lines20(map[int]string{3: "THREE"})), 0o644)
	if err := s.GitStageFile("a.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GitCommit("Three", false); err != nil {
		t.Fatal(err)
	}
	v, err = s.GitChanges()
	if err != nil || v.Changes.Against == nil || len(v.Changes.Against.Commits) != 1 || v.Changes.Safe {
		t.Fatalf("view in the worktree: %+v %v", v.Changes, err)
	}
	ws, _ := s.WorktreeSessions()
	if ws.Current != "feat" || ws.Main != g.dir || len(ws.List) != 1 {
		t.Fatalf("sessions %+v", ws)
	}
	if m, err := s.MergeWorktreeSession(); err != nil || len(m.Commits) != 1 {
		t.Fatalf("merge %+v %v", m, err)
	}
	if !strings.Contains(g.read("a.txt"), "THREE") {
		t.Fatal("the merge did not land in the main worktree")
	}
	lose, err := s.EndWorktreeSession(true, false)
	if err != nil || lose != nil {
		t.Fatalf("a merged session loses nothing: %+v %v", lose, err)
	}
	if h.get() != g.dir {
		t.Fatalf("the window should be back in the main worktree, is in %q", h.get())
	}
	if len(h.closed) != 1 || h.closed[0] != w.Path {
		t.Fatalf("the window's sessions in the worktree should end before it is removed: %q", h.closed)
	}
	if _, err := os.Stat(w.Path); !os.IsNotExist(err) {
		t.Fatal("the worktree is still there")
	}
}

// A worktree deleted behind the window's back: the view says so, and the
// session can still be ended.
func TestServiceSurvivesAWorktreeDeletedBehindItsBack(t *testing.T) {
	g := newRepo(t, map[string]string{"a.txt": "a\n"})
	s, h := newService(t, g.dir)
	w, err := s.NewWorktreeSession("gone")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(w.Path, "b.txt"), []byte("b\n"), 0o644)
	if lose, err := s.EndWorktreeSession(true, false); err != nil || lose == nil || len(lose.Uncommitted) != 1 {
		t.Fatalf("an unconfirmed discard lists what it loses: %+v %v", lose, err)
	}
	if h.get() != w.Path {
		t.Fatal("an unconfirmed discard changed the workspace")
	}
	os.RemoveAll(w.Path)
	v, err := s.GitChanges()
	if err != nil || !strings.Contains(v.Gone, "is gone") {
		t.Fatalf("view of a gone worktree: %+v %v", v, err)
	}
	before := g.git("status", "--porcelain")
	if _, err := s.EndWorktreeSession(true, true); err != nil {
		t.Fatal(err)
	}
	if h.get() != g.dir || g.git("branch", "--list", "gatehouse/gone") != "" || g.git("status", "--porcelain") != before {
		t.Fatalf("after ending: workspace %q", h.get())
	}
}
