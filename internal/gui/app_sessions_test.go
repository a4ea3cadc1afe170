package gui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

func kinds(items []protocol.TranscriptItem) string {
	var k []string
	for _, it := range items {
		k = append(k, string(it.Kind))
	}
	return strings.Join(k, ",")
}

// A session is logged as it runs, listed, and resumed with its transcript,
// its history (the next request carries the earlier call and its result),
// and its processes as ended entries.
func TestSessionsAreListedAndResumed(t *testing.T) {
	app, ws, srv := newTestAppServer(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Text("Reading."), ToolCalls: []llmtest.ToolCall{
			{ID: "call_1", Name: "read_file", Arguments: llmtest.Text(`{"path":"README.md"}`)},
			{ID: "call_2", Name: "bash", Arguments: llmtest.Text(`{"action":"start","command":"echo started; sleep 300"}`)},
		}},
		{Text: llmtest.Text("It says hello.")},
		{Text: llmtest.Text("Still hello.")},
	}})
	if err := os.WriteFile(filepath.Join(ws, "README.md"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "What does the README say?"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	first := app.Snapshot()
	if kinds(first.Transcript) != "user,assistant,tool,tool,assistant,stop" {
		t.Fatalf("transcript %s", kinds(first.Transcript))
	}
	// The registry reports a start from its own goroutine: on a busy machine
	// process.started can come after the turn's end.
	for deadline := time.Now().Add(10 * time.Second); len(first.Processes) == 0; first = app.Snapshot() {
		if time.Now().After(deadline) {
			t.Fatal("the started process never reached the snapshot")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The process's first line is in its ring buffer before the session closes.
	for deadline := time.Now().Add(10 * time.Second); ; {
		if l, err := app.ProcessLogs(first.Processes[0].ProcessID, 0, 1000); err == nil && strings.Contains(l.Data, "started") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the process never printed its line")
		}
		time.Sleep(10 * time.Millisecond)
	}

	fresh := app.NewSession()
	if fresh.SessionID == "" || fresh.SessionID == first.SessionID || len(fresh.Transcript) != 0 || len(fresh.Processes) != 0 {
		t.Fatalf("new session snapshot %+v", fresh)
	}
	if fresh.LastSeq < first.LastSeq {
		t.Errorf("a new session's snapshot went back to seq %d from %d", fresh.LastSeq, first.LastSeq)
	}
	list := app.ListSessions()
	if len(list) != 1 || list[0].ID != first.SessionID || list[0].Title != "What does the README say?" || list[0].Turns != 1 || list[0].Current {
		t.Fatalf("list %+v", list)
	}

	snap, err := app.ResumeSession(first.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if snap.SessionID != first.SessionID || kinds(snap.Transcript) != kinds(first.Transcript) {
		t.Fatalf("resumed %s %s", snap.SessionID, kinds(snap.Transcript))
	}
	if len(snap.Processes) != 1 || !snap.Processes[0].Restored || snap.Processes[0].Status == protocol.StatusRunning {
		t.Fatalf("resumed processes %+v", snap.Processes)
	}
	logs, err := app.ProcessLogs(snap.Processes[0].ProcessID, 0, 1000)
	if err != nil || !strings.Contains(logs.Data, "started") {
		t.Errorf("restored output %+v %v", logs, err)
	}
	if l := app.ListSessions(); len(l) != 1 || !l[0].Current {
		t.Errorf("list after resume %+v", l)
	}

	if _, err := app.Submit(protocol.Submission{Text: "And now?"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	after := app.Snapshot()
	if kinds(after.Transcript) != kinds(first.Transcript)+",user,assistant,stop" {
		t.Fatalf("after the next turn: %s", kinds(after.Transcript))
	}
	seen := map[string]bool{}
	for _, it := range after.Transcript {
		if it.ID != "" && seen[string(it.Kind)+it.ID] {
			t.Errorf("id %s %s repeats after resume", it.Kind, it.ID)
		}
		seen[string(it.Kind)+it.ID] = true
	}
	if it := after.Transcript[len(after.Transcript)-2]; it.Text != "Still hello." {
		t.Errorf("answer %+v", it)
	}
	// The fake server checks that the request pairs each call with one
	// result; check it carried the first turn too.
	reqs := srv.Requests()
	srvReqs := string(reqs[len(reqs)-1].Body)
	for _, want := range []string{"What does the README say?", "call_1", "call_2", "hello", "And now?"} {
		if !strings.Contains(srvReqs, want) {
			t.Errorf("the resumed request lacks %q", want)
		}
	}
	if _, err := app.ResumeSession("../../etc"); err == nil {
		t.Error("resumed a path")
	}
	if _, err := app.ResumeSession("no-such-session"); err == nil {
		t.Error("resumed a missing session")
	}
	if app.Snapshot().SessionID != first.SessionID {
		t.Error("a failed resume closed the open session")
	}
}

// A session whose log ends inside a turn (Gatehouse quit or crashed before
// the turn stopped) resumes with that turn ended as interrupted, once: the
// stop item is written to the log, and the next turn goes on from there.
func TestResumingASessionLeftMidTurnEndsThatTurn(t *testing.T) {
	app, ws, _ := newTestAppServer(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("Back again.")}}})
	const id = "20261130-left-mid-turn"
	log, err := app.kit.Sessions().Create(ws, id)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range []protocol.TranscriptItem{
		{Kind: protocol.ItemUser, TurnID: id + "-t1", Text: "Refactor it"},
		{Kind: protocol.ItemAssistant, ID: "m1", TurnID: id + "-t1", Text: "Starting."},
	} {
		if err := log.AppendItem(it); err != nil {
			t.Fatal(err)
		}
	}
	log.Close()

	snap, err := app.ResumeSession(id)
	if err != nil {
		t.Fatal(err)
	}
	if kinds(snap.Transcript) != "user,assistant,stop" {
		t.Fatalf("resumed %s", kinds(snap.Transcript))
	}
	if stop := snap.Transcript[2]; stop.TurnID != id+"-t1" || stop.Reason != protocol.StopError || stop.ErrorKind != session.ErrorKindInterrupted {
		t.Fatalf("stop item %+v", stop)
	}
	if _, err := app.Submit(protocol.Submission{Text: "Go on"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)

	app.NewSession()
	again, err := app.ResumeSession(id)
	if err != nil {
		t.Fatal(err)
	}
	if kinds(again.Transcript) != "user,assistant,stop,user,assistant,stop" || again.Transcript[5].Reason != protocol.StopCompleted {
		t.Fatalf("reopened %s", kinds(again.Transcript))
	}
}
