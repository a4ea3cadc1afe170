package gui

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/settings"
)

// newRaceApp is the window in manual mode on a temp folder, its model
// answering n turns that each write f.txt.
func newRaceApp(t *testing.T, n int) *App {
	t.Helper()
	var responses []llmtest.Response
	for i := 0; i < n; i++ {
		responses = append(responses,
			llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: "c", Name: "write_file", Arguments: llmtest.Text(`{"path":"f.txt","content":"x"}`)}}},
			llmtest.Response{Text: llmtest.Text("ok")})
	}
	srv := llmtest.StartUnchecked(llmtest.Script{Responses: responses})
	t.Cleanup(srv.Close)
	store := settings.NewStore(filepath.Join(t.TempDir(), "config"))
	app := NewApp(time.Now(), slog.New(slog.NewTextHandler(io.Discard, nil)), store, settings.Flags{}, filepath.Join(t.TempDir(), "data"))
	if _, err := app.SaveSettings(SettingsInput{BaseURL: srv.URL, Model: "fake-model"}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.SetApprovalMode("manual"); err != nil {
		t.Fatal(err)
	}
	if err := app.setWorkspace(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	return app
}

// loops runs each f given to loop over and over, pause apart, until halt,
// which waits for them.
func loops() (loop func(pause time.Duration, f func()), halt func()) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	loop = func(pause time.Duration, f func()) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
					f()
					time.Sleep(pause)
				}
			}
		}()
	}
	return loop, func() { close(stop); wg.Wait() }
}

// Submit, Cancel, approval answers, snapshots and session switches race
// against the window's sessions while the bus delivers their events; run
// with -race. deliver reads the listeners without the App's lock, so the
// bus's lock and the App's are never taken in both orders.
func TestTheWindowUnderConcurrentUse(t *testing.T) {
	app := newRaceApp(t, 60)
	defer app.shutdown(context.Background())
	loop, halt := loops()
	var mu sync.Mutex
	stops := 0
	loop(time.Millisecond, func() { app.Submit(protocol.Submission{Text: "go"}) })
	loop(4*time.Millisecond, app.Cancel)
	loop(time.Millisecond, func() {
		for _, p := range app.Snapshot().PendingApprovals {
			app.ResolveApproval(p.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce})
		}
	})
	loop(time.Millisecond, func() {
		n := 0
		for _, it := range app.Snapshot().Transcript {
			if it.Kind == protocol.ItemStop {
				n++
			}
		}
		mu.Lock()
		stops = max(stops, n)
		mu.Unlock()
	})
	loop(20*time.Millisecond, func() { app.NewSession() })
	loop(2*time.Millisecond, func() { app.ListRules(); app.Processes(); app.Queued() })
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		mu.Lock()
		n := stops
		mu.Unlock()
		if n >= 2 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	halt()
	// Closing the session rejects what waits and drops the queue.
	snap := app.NewSession()
	if snap.LastSeq != app.bus.LastSeq() {
		t.Errorf("snapshot at seq %d, bus at %d", snap.LastSeq, app.bus.LastSeq())
	}
	mu.Lock()
	defer mu.Unlock()
	if stops == 0 {
		t.Error("no turn stopped")
	}
}

// A message sent while the workspace switches opens its session in the new
// folder with the new folder's watch, never the new folder with the old
// folder's watch: the switch is one step for a session that opens meanwhile.
func TestSubmitDuringAWorkspaceSwitch(t *testing.T) {
	app, _ := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("ok")}}})
	// Many folders: opening its watch takes a while, the switch is slow.
	next := t.TempDir()
	for i := range 400 {
		if err := os.MkdirAll(filepath.Join(next, fmt.Sprintf("d%03d", i), "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	switched := make(chan error, 1)
	go func() { switched <- app.setWorkspace(next) }()
	for app.workspaceRoot() != next {
		time.Sleep(100 * time.Microsecond)
	}
	if _, err := app.Submit(protocol.Submission{Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if err := <-switched; err != nil {
		t.Fatal(err)
	}
	s := app.currentSession()
	if s == nil {
		t.Fatal("no session: the switch closed the one the message opened")
	}
	waitIdle(t, app)
	watched := "(none)"
	if f := s.Files(); f != nil {
		watched = f.W.Root()
	}
	if s.Workspace().Root() != next || watched != next {
		t.Fatalf("the session works in %s with the watch of %s, want %s", s.Workspace().Root(), watched, next)
	}
}

// Tabs opened, shown and closed while their turns run and ask, under -race:
// no lock is taken in both orders, and every session the window opened is
// closed at the end (none left listening).
func TestTabsUnderConcurrentUse(t *testing.T) {
	app := newRaceApp(t, 200)
	other := t.TempDir()
	loop, halt := loops()
	loop(2*time.Millisecond, func() { app.Submit(protocol.Submission{Text: "go"}) })
	loop(time.Millisecond, func() {
		for _, p := range app.Snapshot().PendingApprovals {
			app.ResolveApproval(p.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce})
		}
	})
	loop(15*time.Millisecond, func() {
		if len(app.Tabs()) < 4 {
			app.NewTab()
			app.showFolder(other)
		}
	})
	loop(5*time.Millisecond, func() {
		if tabs := app.Tabs(); len(tabs) > 0 {
			app.SwitchTab(tabs[time.Now().Nanosecond()%len(tabs)].ID)
		}
	})
	loop(25*time.Millisecond, func() {
		if tabs := app.Tabs(); len(tabs) > 2 {
			app.CloseTab(tabs[0].ID)
		}
	})
	time.Sleep(3 * time.Second)
	halt()
	app.shutdown(context.Background())
	if l := app.listening.Load(); l != nil && len(*l) != 0 {
		t.Fatalf("%d sessions still listening after shutdown", len(*l))
	}
}
