package gui

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/settings"
)

// restartApp quits app as the window does and starts another App on the
// same settings and data folders, as the next start does (workspace: the
// folder the command line names, "" none).
func restartApp(t *testing.T, app *App, workspace string) *App {
	t.Helper()
	app.shutdown(context.Background())
	return startAgain(t, app, workspace)
}

// startAgain starts another App on the folders of app, which has quit.
func startAgain(t *testing.T, app *App, workspace string) *App {
	t.Helper()
	next := NewApp(time.Now(), slog.New(slog.NewTextHandler(io.Discard, nil)), app.store, settings.Flags{}, app.kit.Env().DataDir)
	t.Cleanup(func() { next.shutdown(context.Background()) })
	if err := Start(next, "", workspace); err != nil {
		t.Fatal(err)
	}
	return next
}

// sendAndWait sends prompt in the shown tab and waits for its turn's end.
func sendAndWait(t *testing.T, app *App, prompt string) string {
	t.Helper()
	if _, err := app.Submit(protocol.Submission{Text: prompt}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	return app.currentSession().ID()
}

func lastReply(s protocol.Snapshot) string {
	for i := len(s.Transcript) - 1; i >= 0; i-- {
		if s.Transcript[i].Kind == protocol.ItemAssistant {
			return s.Transcript[i].Text
		}
	}
	return ""
}

// TestTabsOpenAtQuitComeBackResumed: quitting with three tabs open (two
// folders) and starting again shows the three in their order, the one shown
// at quit shown again, each with its session resumed; a message goes on in
// a restored tab's session.
func TestTabsOpenAtQuitComeBackResumed(t *testing.T) {
	app, wsA := newTestApp(t, llmtest.Script{When: []llmtest.Rule{
		{LastContains: "one", Response: llmtest.Response{Text: llmtest.Text("reply one")}},
		{LastContains: "two", Response: llmtest.Response{Text: llmtest.Text("reply two")}},
		{LastContains: "three", Response: llmtest.Response{Text: llmtest.Text("reply three")}},
		{LastContains: "again", Response: llmtest.Response{Text: llmtest.Text("reply again")}},
	}})
	one := sendAndWait(t, app, "one")
	wsB := t.TempDir()
	if err := app.openTab(wsB); err != nil {
		t.Fatal(err)
	}
	two := sendAndWait(t, app, "two")
	if _, err := app.NewTab(); err != nil {
		t.Fatal(err)
	}
	three := sendAndWait(t, app, "three")
	if _, err := app.SwitchTab(two); err != nil {
		t.Fatal(err)
	}

	next := restartApp(t, app, "")
	tabs := next.Tabs()
	want := []struct{ id, dir, title string }{{one, wsA, "one"}, {two, wsB, "two"}, {three, wsB, "three"}}
	if len(tabs) != len(want) {
		t.Fatalf("tabs after the restart: %+v", tabs)
	}
	for i, w := range want {
		if tabs[i].ID != w.id || tabs[i].Workspace != w.dir || tabs[i].Title != w.title || tabs[i].Current != (w.id == two) {
			t.Fatalf("tab %d is %+v, want %+v (current: %s)", i, tabs[i], w, two)
		}
	}
	if st := next.State(); st.Workspace != wsB {
		t.Fatalf("the shown folder is %q, want %q", st.Workspace, wsB)
	}
	for _, w := range want {
		snap, err := next.SwitchTab(w.id)
		if err != nil {
			t.Fatal(err)
		}
		if snap.SessionID != w.id || lastReply(snap) != "reply "+w.title {
			t.Fatalf("tab %s resumed as %+v", w.title, snap)
		}
	}
	if _, err := next.SwitchTab(one); err != nil {
		t.Fatal(err)
	}
	if id := sendAndWait(t, next, "again"); id != one {
		t.Fatalf("the message went to session %s, not the resumed %s", id, one)
	}
	snap := next.Snapshot()
	if n := countKind(snap, protocol.ItemUser); n != 2 || lastReply(snap) != "reply again" {
		t.Fatalf("the resumed session after a message: %+v", snap.Transcript)
	}
}

func countKind(s protocol.Snapshot, k protocol.ItemKind) int {
	n := 0
	for _, it := range s.Transcript {
		if it.Kind == k {
			n++
		}
	}
	return n
}

// TestTabsRestoreLeavesOutWhatIsGone: a tab whose folder was deleted is
// not reopened; a tab whose session was never saved opens an empty one on
// its folder; the folder named on the command line is shown, in a new tab
// when none is open on it; an unreadable tabs file starts with that folder
// alone.
func TestTabsRestoreLeavesOutWhatIsGone(t *testing.T) {
	app, wsA := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("hi")}}})
	one := sendAndWait(t, app, "one")
	gone := t.TempDir()
	if err := app.openTab(gone); err != nil {
		t.Fatal(err)
	}
	wsC := t.TempDir()
	if err := app.openTab(wsC); err != nil { // its session never gets a message
		t.Fatal(err)
	}
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	wsD := t.TempDir()
	next := restartApp(t, app, wsD)
	tabs := next.Tabs()
	if len(tabs) != 3 || tabs[0].ID != one || tabs[1].Workspace != wsC || tabs[2].Workspace != wsD || !tabs[2].Current {
		t.Fatalf("tabs after the restart: %+v", tabs)
	}
	if snap, _ := next.SwitchTab(tabs[1].ID); len(snap.Transcript) != 0 || snap.SessionID == "" {
		t.Fatalf("the unsaved session's tab: %+v", snap)
	}

	next.shutdown(context.Background())
	if err := os.WriteFile(filepath.Join(next.kit.Env().DataDir, TabsFile), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	last := startAgain(t, next, "") // the last folder opened comes back
	if tabs := last.Tabs(); len(tabs) != 1 || tabs[0].Workspace != wsA || !tabs[0].Current {
		t.Fatalf("tabs after an unreadable file: %+v", tabs)
	}
}
