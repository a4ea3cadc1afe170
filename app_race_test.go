package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/settings"
)

// Submit, Cancel, approval answers, snapshots and session switches race
// against the window's sessions while the bus delivers their events; run
// with -race. deliver reads the listeners without the App's lock, so the
// bus's lock and the App's are never taken in both orders.
func TestTheWindowUnderConcurrentUse(t *testing.T) {
	var responses []llmtest.Response
	for i := 0; i < 60; i++ {
		responses = append(responses,
			llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: "c", Name: "write_file", Arguments: llmtest.Text(`{"path":"f.txt","content":"x"}`)}}},
			llmtest.Response{Text: llmtest.Text("ok")})
	}
	srv := llmtest.StartUnchecked(llmtest.Script{Responses: responses})
	defer srv.Close()
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
	defer app.shutdown(context.Background())

	stop := make(chan struct{})
	var wg sync.WaitGroup
	loop := func(pause time.Duration, f func()) {
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
	var mu sync.Mutex
	stops := 0
	loop(time.Millisecond, func() { app.Submit("go") })
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
	close(stop)
	wg.Wait()
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
