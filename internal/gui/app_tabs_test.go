package gui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

func writeCall(id, path, content string, delayMs int) llmtest.Response {
	return llmtest.Response{DelayMs: delayMs, ToolCalls: []llmtest.ToolCall{
		{ID: id, Name: "write_file", Arguments: llmtest.Text(`{"path":"` + path + `","content":"` + content + `"}`)}}}
}

// tabOf is the tab of session id in app.Tabs().
func tabOf(t *testing.T, app *App, id string) TabInfo {
	t.Helper()
	for _, tb := range app.Tabs() {
		if tb.ID == id {
			return tb
		}
	}
	t.Fatalf("no tab for session %s in %+v", id, app.Tabs())
	return TabInfo{}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal(what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestTwoSessionsRunAtOnceInTheirTabs: a session goes on in the background
// while another tab is shown; its approval request notifies, naming the
// session, waits with a badge, and is approved once its tab is shown.
func TestTwoSessionsRunAtOnceInTheirTabs(t *testing.T) {
	app, wsA := newTestApp(t, llmtest.Script{
		Responses: []llmtest.Response{{Text: llmtest.Text("done")}, {Text: llmtest.Text("done")}},
		When: []llmtest.Rule{
			// A's first answer comes slowly: its dialog opens while B is shown.
			{LastContains: "task A", Response: llmtest.Response{DelayMs: 150, Text: llmtest.Text("one two three four five six"),
				ToolCalls: writeCall("a1", "a.txt", "from A", 0).ToolCalls}},
			{LastContains: "task B", Response: writeCall("b1", "b.txt", "from B", 0)},
		},
	})
	sent := make(recordingNotifier, 4)
	app.attention.notifier = sent
	a := submitSafe(t, app, "task A")
	wsB := t.TempDir()
	if err := app.showFolder(wsB); err != nil {
		t.Fatal(err)
	}
	b := app.currentSession()
	if b == nil || b == a || app.State().Workspace != wsB {
		t.Fatalf("the new tab is not shown: %+v", app.State())
	}
	if _, err := app.Submit(protocol.Submission{Text: "task B"}); err != nil {
		t.Fatal(err)
	}
	reqB := waitApproval(t, app)
	waitFor(t, "A's approval did not come", func() bool { return tabOf(t, app, a.ID()).Waiting == 1 })
	select {
	case n := <-sent:
		name := filepath.Base(wsA)
		if n[0] != "Session "+name+" is waiting for you" || !strings.Contains(n[1], "write_file") {
			t.Fatalf("notification %q", n)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no notification for the background session's approval")
	}
	if ta := tabOf(t, app, a.ID()); ta.Current || !ta.Running || ta.Title != "task A" {
		t.Fatalf("tab A %+v", ta)
	}
	if p := app.Snapshot().PendingApprovals; len(p) != 1 || p[0].ApprovalID != reqB.ApprovalID {
		t.Fatalf("the shown tab's dialogs: %+v", p)
	}

	snap, err := app.SwitchTab(a.ID())
	if err != nil {
		t.Fatal(err)
	}
	if snap.SessionID != a.ID() || len(snap.PendingApprovals) != 1 || app.State().Workspace != wsA {
		t.Fatalf("after the switch: %+v", snap)
	}
	if err := app.ResolveApproval(snap.PendingApprovals[0].ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if got, _ := os.ReadFile(filepath.Join(wsA, "a.txt")); string(got) != "from A" {
		t.Fatalf("a.txt %q", got)
	}
	// B's turn went on waiting in the background, untouched by the switch.
	if tb := tabOf(t, app, b.ID()); !tb.Running || tb.Waiting != 1 {
		t.Fatalf("tab B %+v", tb)
	}
	if _, err := os.Stat(filepath.Join(wsB, "b.txt")); err == nil {
		t.Fatal("B's write ran without its approval")
	}
	if _, err := app.SwitchTab(b.ID()); err != nil {
		t.Fatal(err)
	}
	if err := app.ResolveApproval(reqB.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if got, _ := os.ReadFile(filepath.Join(wsB, "b.txt")); string(got) != "from B" {
		t.Fatalf("b.txt %q", got)
	}
	for _, f := range []string{filepath.Join(wsA, "b.txt"), filepath.Join(wsB, "a.txt")} {
		if _, err := os.Stat(f); err == nil {
			t.Fatalf("%s written in the other session's folder", f)
		}
	}

	// Closing the shown tab shows the other; its session ends.
	if err := app.CloseTab(b.ID()); err != nil {
		t.Fatal(err)
	}
	if tabs := app.Tabs(); len(tabs) != 1 || tabs[0].ID != a.ID() || !tabs[0].Current {
		t.Fatalf("tabs after closing B: %+v", tabs)
	}
	if err := app.CloseTab(a.ID()); err == nil {
		t.Fatal("the last tab closed")
	}
}

// TestTabsOnOneFolderSeeEachOthersChanges: two sessions on the same folder
// share its watch, so a dialog of one is marked stale when the other
// changes its file, and each tab names the other.
func TestTabsOnOneFolderSeeEachOthersChanges(t *testing.T) {
	app, ws := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{
		writeCall("a1", "same.txt", "from A", 0),
		writeCall("b1", "same.txt", "from B", 0),
		{Text: llmtest.Text("done")},
	}})
	reqA := askOver(t, app, ws, "same.txt", "task A")
	a := app.currentSession()
	if _, err := app.NewTab(); err != nil {
		t.Fatal(err)
	}
	b := app.currentSession()
	if b == a || app.State().Workspace != ws {
		t.Fatal("no second session on the folder")
	}
	name := filepath.Base(ws)
	if tb := tabOf(t, app, b.ID()); tb.Name != name+" 2" || len(tb.SharedWith) != 1 || tb.SharedWith[0] != name {
		t.Fatalf("tab B %+v", tb)
	}
	if _, err := app.Submit(protocol.Submission{Text: "task B"}); err != nil {
		t.Fatal(err)
	}
	reqB := waitApproval(t, app)
	if err := app.ResolveApproval(reqB.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if _, err := app.SwitchTab(a.ID()); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "A's dialog was not marked stale by B's write", func() bool {
		p := app.Snapshot().PendingApprovals
		return len(p) == 1 && len(p[0].Stale) == 1 && p[0].Stale[0] == "same.txt"
	})
	if err := app.ResolveApproval(reqA.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce}); err == nil || !strings.Contains(err.Error(), "re-preview first") {
		t.Fatalf("approving over B's change: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(ws, "same.txt")); string(got) != "from B" {
		t.Fatalf("same.txt %q", got)
	}
}

// TestAWorktreeDeletedBehindTheWindow: the tab of a deleted folder is
// marked, takes no message, and its waiting write creates nothing; the
// window goes on in the other tab.
func TestAWorktreeDeletedBehindTheWindow(t *testing.T) {
	app, wsA := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{
		writeCall("g1", "sub/new.txt", "late", 0),
		{Text: llmtest.Text("done")},
		{Text: llmtest.Text("still here")},
	}})
	if _, err := app.SetApprovalMode("safe"); err != nil {
		t.Fatal(err)
	}
	a, err := app.session()
	if err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(t.TempDir(), "wt")
	if err := os.Mkdir(gone, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := app.showFolder(gone); err != nil {
		t.Fatal(err)
	}
	g := app.currentSession()
	if _, err := app.Submit(protocol.Submission{Text: "write"}); err != nil {
		t.Fatal(err)
	}
	req := waitApproval(t, app)
	if err := os.RemoveAll(gone); err != nil {
		t.Fatal(err)
	}
	if tb := tabOf(t, app, g.ID()); !strings.Contains(tb.Gone, "is gone") {
		t.Fatalf("tab of the deleted folder %+v", tb)
	}
	_ = app.ResolveApproval(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionOnce})
	waitIdle(t, app)
	if _, err := os.Stat(gone); err == nil {
		t.Fatal("the approved write made the deleted folder again")
	}
	if _, err := app.Submit(protocol.Submission{Text: "again"}); err == nil || !strings.Contains(err.Error(), "is gone") {
		t.Fatalf("a message to the deleted folder's session: %v", err)
	}
	if _, err := os.Stat(gone); err == nil {
		t.Fatal("the deleted folder came back")
	}
	if _, err := app.SwitchTab(a.ID()); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if tr := app.Snapshot().Transcript; tr[len(tr)-2].Text != "still here" {
		t.Fatalf("the other tab's turn: %+v", tr)
	}
	if entries, _ := os.ReadDir(wsA); len(entries) != 0 {
		t.Fatalf("written in the other folder: %v", entries)
	}
	if err := app.CloseTab(g.ID()); err != nil {
		t.Fatal(err)
	}
}

// TestEachTabHasItsOwnProcesses: the panel lists the shown tab's processes;
// the quit dialog names every tab's; closing a tab stops its own.
func TestEachTabHasItsOwnProcesses(t *testing.T) {
	app, _ := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "bash", Arguments: llmtest.Text(`{"action":"start","command":"sleep 300"}`)}}},
		{Text: llmtest.Text("started")},
	}})
	if _, err := app.Submit(protocol.Submission{Text: "start it"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	a := app.currentSession()
	if n := len(app.Processes()); n != 1 {
		t.Fatalf("%d processes in A", n)
	}
	if _, err := app.NewTab(); err != nil {
		t.Fatal(err)
	}
	if n := len(app.Processes()); n != 0 {
		t.Fatalf("the new tab lists %d processes", n)
	}
	running := app.RunningProcesses()
	if len(running) != 1 || running[0].Command != "sleep 300" {
		t.Fatalf("the quit dialog's processes: %+v", running)
	}
	if err := app.CloseTab(a.ID()); err != nil {
		t.Fatal(err)
	}
	if running := app.RunningProcesses(); len(running) != 0 {
		t.Fatalf("still running after closing its tab: %+v", running)
	}
}

// TestResumingASessionOpenInAnotherTabShowsThatTab: the sessions menu
// never opens a session twice (two runtimes on one log).
func TestResumingASessionOpenInAnotherTabShowsThatTab(t *testing.T) {
	app, _ := newTestApp(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("hi")}}})
	if _, err := app.Submit(protocol.Submission{Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	a := app.currentSession()
	if _, err := app.NewTab(); err != nil {
		t.Fatal(err)
	}
	snap, err := app.ResumeSession(a.ID())
	if err != nil {
		t.Fatal(err)
	}
	if app.currentSession() != a || snap.SessionID != a.ID() || len(app.Tabs()) != 2 {
		t.Fatalf("resumed %s into %p (A is %p), %d tabs", snap.SessionID, app.currentSession(), a, len(app.Tabs()))
	}
}

// TestAGoneFolderWithoutASessionLeavesNoTabBehind: a folder deleted before
// its first message has no session to come back to; opening another tab
// drops it rather than leave a tab that cannot be shown or closed.
func TestAGoneFolderWithoutASessionLeavesNoTabBehind(t *testing.T) {
	app, ws := newTestApp(t, llmtest.Script{})
	if err := os.RemoveAll(ws); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	if err := app.showFolder(other); err != nil {
		t.Fatal(err)
	}
	if tabs := app.Tabs(); len(tabs) != 1 || tabs[0].Workspace != other || tabs[0].ID == "" {
		t.Fatalf("tabs %+v", tabs)
	}
	if _, err := os.Stat(ws); err == nil {
		t.Fatal("the deleted folder came back")
	}
}
