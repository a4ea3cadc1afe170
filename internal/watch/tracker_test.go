//go:build linux

package watch

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/files"
	"gatehouse/internal/workspace"
)

// fakeShell stands in for bash: its exec runs a Go function as "the
// command"; status only reads.
type fakeShell struct{ run func() }

func (f fakeShell) Spec() tools.Spec { return tools.Spec{Name: "bash"} }
func (f fakeShell) ReadOnlyCall(args json.RawMessage) bool {
	return strings.Contains(string(args), `"status"`)
}
func (f fakeShell) Run(context.Context, json.RawMessage) (tools.Result, error) {
	f.run()
	return tools.OK(map[string]int{"exitCode": 0})
}

// Prepare describes a call as the real bash does: a command to run.
func (f fakeShell) Prepare(_ context.Context, args json.RawMessage) (*tools.Prepared, tools.Result, bool) {
	return &tools.Prepared{Command: &protocol.CommandPreview{Command: "make"},
		Run: func(ctx context.Context, _ protocol.Decision) (tools.Result, error) { return f.Run(ctx, args) }}, tools.Result{}, true
}

type session struct {
	t    *testing.T
	root string
	w    *Watcher
	c    *fakeClock
	tr   *Tracker
	ws   *workspace.Workspace
}

func newSession(t *testing.T, topts TrackerOptions, seed map[string]string) *session {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range seed {
		write(t, root, p, c)
	}
	s := &session{t: t, root: root}
	s.c = newFakeClock()
	topts.Clock = s.c
	s.tr = NewTracker(root, topts)
	s.w, err = New(root, Options{Clock: s.c, OnFile: s.tr.Remember})
	if err != nil {
		t.Fatal(err)
	}
	s.w.OnBatch(s.tr.Observe)
	s.w.Start()
	<-s.w.Ready()
	t.Cleanup(s.w.Stop)
	s.ws, err = workspace.New(root, workspace.Options{ProtectedDirs: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// call runs a tool through the tracker's middleware, as the router would.
func (s *session) call(tool tools.Tool, args string) tools.Result {
	s.t.Helper()
	res, err := tools.Chain(tool, tools.Plan(nil), s.tr.Middleware(s.ws))(context.Background(), tools.Call{ID: "c", Name: tool.Spec().Name, Args: json.RawMessage(args)})
	if err != nil || res.IsError {
		s.t.Fatalf("%s %s: %v %s", tool.Spec().Name, args, err, res.Output)
	}
	return res
}

func (s *session) changed() map[string]string {
	m := map[string]string{}
	for _, c := range s.tr.Changed() {
		var o []string
		for _, x := range c.Origins {
			o = append(o, string(x))
		}
		m[c.Path] = c.Badge + " " + strings.Join(o, ",")
	}
	return m
}

func TestTrackerAttributesChanges(t *testing.T) {
	s := newSession(t, TrackerOptions{CacheBudget: 1}, map[string]string{
		"a.txt": "old a\n", "b.txt": "old b\n", "c.txt": "old c\n", "keep.txt": "same\n",
	})
	// The agent's write_file: modified by the agent; its baseline was read
	// just before the write, since nothing was cached (budget of 1 byte).
	s.call(files.NewWriteFile(s.ws), `{"path":"a.txt","content":"new a\n"}`)
	settle(t, s.w, s.c)
	s.call(files.NewReadFile(s.ws), `{"path":"c.txt"}`)
	write(t, s.root, "c.txt", "the user's c\n")
	settle(t, s.w, s.c)
	// The shell: changes while a bash exec runs.
	s.call(fakeShell{run: func() {
		write(t, s.root, "b.txt", "sed'ed b\n")
		write(t, s.root, "gen/d.txt", "generated\n")
	}}, `{"action":"exec","command":"make"}`)
	settle(t, s.w, s.c)
	// apply_patch adds and deletes.
	s.call(files.NewApplyPatch(s.ws), `{"patch":"*** Begin Patch\n*** Add File: e.txt\n+e\n*** Delete File: keep.txt\n*** End Patch"}`)
	settle(t, s.w, s.c)
	// Outside: an edit of the agent's file, and a created file removed again.
	write(t, s.root, "a.txt", "user edits a\n")
	if err := os.Remove(filepath.Join(s.root, "gen/d.txt")); err != nil {
		t.Fatal(err)
	}
	settle(t, s.w, s.c)

	want := map[string]string{
		"a.txt": "M agent,outside", "b.txt": "M shell", "c.txt": "M outside",
		"e.txt": "A agent", "keep.txt": "D agent",
	}
	if got := s.changed(); !reflect.DeepEqual(got, want) {
		t.Fatalf("changed files:\n got %v\nwant %v", got, want)
	}
	for path, want := range map[string]string{"a.txt": "old a\n", "c.txt": "old c\n", "keep.txt": "same\n", "e.txt": ""} {
		_, base, known, ok := s.tr.Baseline(path)
		if !ok || !known || string(base) != want {
			t.Errorf("baseline of %s: %q known=%v ok=%v, want %q", path, base, known, ok, want)
		}
	}
	if c, _, known, _ := s.tr.Baseline("b.txt"); known || c.BaselineKnown {
		t.Errorf("b.txt was never read before the shell changed it; its baseline cannot be known")
	}
}

func TestTrackerKeepsBaselinesFromTheFirstWalk(t *testing.T) {
	s := newSession(t, TrackerOptions{}, map[string]string{"src/x.go": "package x\n"})
	write(t, s.root, "src/x.go", "package y\n")
	settle(t, s.w, s.c)
	c, base, known, ok := s.tr.Baseline("src/x.go")
	if !ok || !known || string(base) != "package x\n" || c.Origin != OriginOutside || c.Badge != "M" {
		t.Fatalf("baseline %q known=%v ok=%v %+v", base, known, ok, c)
	}
}

func TestNotesNameReadFilesChangedOutside(t *testing.T) {
	s := newSession(t, TrackerOptions{}, map[string]string{"r.txt": "1\n", "w.txt": "1\n", "other.txt": "1\n"})
	s.call(files.NewReadFile(s.ws), `{"path":"r.txt"}`)
	s.call(files.NewReadFile(s.ws), `{"path":"w.txt"}`)
	s.call(files.NewWriteFile(s.ws), `{"path":"w.txt","content":"2\n"}`) // the agent's own: no note
	write(t, s.root, "other.txt", "2\n")                                 // never read: no note
	settle(t, s.w, s.c)
	if n := s.tr.Notes(); n != nil {
		t.Fatalf("notes without outside changes of read files: %q", n)
	}
	write(t, s.root, "r.txt", "2\n")
	settle(t, s.w, s.c)
	n := s.tr.Notes()
	if len(n) != 1 || !strings.Contains(n[0], "r.txt") || strings.Contains(n[0], "other.txt") || strings.Contains(n[0], "w.txt") {
		t.Fatalf("notes: %q", n)
	}
	if n := s.tr.Notes(); n != nil {
		t.Fatalf("a note is given once: %q", n)
	}
	// Read again, then changed again: named again.
	write(t, s.root, "r.txt", "3\n")
	settle(t, s.w, s.c)
	s.call(files.NewReadFile(s.ws), `{"path":"r.txt"}`)
	if n := s.tr.Notes(); n != nil {
		t.Fatalf("the agent re-read the file; no note needed: %q", n)
	}
}

// A new session starts the record over: what changed before is its baseline,
// the badges and notes of the session before are gone, and a change noticed
// before the reset but delivered after it is not the new session's.
func TestResetStartsANewSessionsRecord(t *testing.T) {
	s := newSession(t, TrackerOptions{}, map[string]string{"a.txt": "1\n", "b.txt": "1\n", "r.txt": "1\n", "late.txt": "1\n"})
	s.call(files.NewWriteFile(s.ws), `{"path":"a.txt","content":"2\n"}`)
	s.call(files.NewReadFile(s.ws), `{"path":"r.txt"}`)
	write(t, s.root, "b.txt", "2\n")
	write(t, s.root, "r.txt", "2\n") // read, then changed outside: a note is due
	settle(t, s.w, s.c)
	if got := s.changed(); len(got) != 3 {
		t.Fatalf("before the reset: %v", got)
	}
	write(t, s.root, "late.txt", "2\n") // noticed now, delivered after the reset
	waitNoticed(t, s.w, "late.txt")

	s.tr.Reset()
	settle(t, s.w, s.c)
	if got := s.changed(); len(got) != 0 {
		t.Fatalf("after the reset: %v", got)
	}
	if n := s.tr.Notes(); n != nil {
		t.Fatalf("notes of the session before: %q", n)
	}

	// Changed in the new session: against the content it started with.
	write(t, s.root, "a.txt", "3\n")
	write(t, s.root, "late.txt", "3\n")
	settle(t, s.w, s.c)
	if got := s.changed(); !reflect.DeepEqual(got, map[string]string{"a.txt": "M outside", "late.txt": "M outside"}) {
		t.Fatalf("in the new session: %v", got)
	}
	for rel, want := range map[string]string{"a.txt": "2\n", "late.txt": "2\n"} {
		if _, base, known, ok := s.tr.Baseline(rel); !ok || !known || string(base) != want {
			t.Errorf("%s: baseline %q known=%v ok=%v, want %q", rel, base, known, ok, want)
		}
	}
}

// A file brought back to its baseline (an undo, a revert) is no longer
// changed; a deleted one brought back neither.
func TestAFileBackToItsBaselineIsUnchanged(t *testing.T) {
	s := newSession(t, TrackerOptions{}, map[string]string{"a.txt": "old a\n", "b.txt": "old b\n"})
	s.call(files.NewWriteFile(s.ws), `{"path":"a.txt","content":"new a\n"}`)
	s.call(files.NewApplyPatch(s.ws), `{"patch":"*** Begin Patch\n*** Delete File: b.txt\n*** End Patch"}`)
	settle(t, s.w, s.c)
	if got := s.changed(); len(got) != 2 {
		t.Fatalf("changed = %v", got)
	}
	write(t, s.root, "a.txt", "old a\n")
	write(t, s.root, "b.txt", "old b\n")
	settle(t, s.w, s.c)
	if got := s.changed(); len(got) != 0 {
		t.Errorf("changed after the undo = %v", got)
	}
	write(t, s.root, "a.txt", "newer a\n")
	settle(t, s.w, s.c)
	if got := s.changed(); got["a.txt"] != "M outside" {
		t.Errorf("changed again = %v", got)
	}
}
