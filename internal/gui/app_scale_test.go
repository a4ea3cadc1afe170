package gui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

// writeLongLog writes a saved session of workspace with n records after
// its meta line, in turns of a prompt, a tool call with its output, a
// reply and the turn's stop, as a long session's log holds them.
func writeLongLog(t testing.TB, dataDir, workspace, id string, n int) {
	t.Helper()
	path := session.NewStore(dataDir).Path(workspace, id)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	at := time.Now().Add(-time.Hour).UnixMilli()
	put := func(r session.Record) {
		r.AtMs = at
		if err := enc.Encode(r); err != nil {
			t.Fatal(err)
		}
	}
	put(session.Record{Type: session.RecordMeta, Meta: &session.Meta{ID: id, Workspace: workspace, CreatedMs: at}})
	output := json.RawMessage(fmt.Sprintf(`{"ok":true,"output":%q}`, "line of output\n"))
	for i := 0; i < n; i++ {
		turn := fmt.Sprintf("t%d", i/4)
		var it protocol.TranscriptItem
		switch i % 4 {
		case 0:
			it = protocol.TranscriptItem{Kind: protocol.ItemUser, TurnID: turn, Text: fmt.Sprintf("prompt %d", i/4)}
		case 1:
			it = protocol.TranscriptItem{Kind: protocol.ItemTool, TurnID: turn, ID: "call_" + turn, Tool: "read_file",
				Args: json.RawMessage(`{"path":"README.md"}`), Result: output, DurationMs: 3}
		case 2:
			it = protocol.TranscriptItem{Kind: protocol.ItemAssistant, TurnID: turn, ID: "m_" + turn, Text: fmt.Sprintf("reply %d", i/4)}
		case 3:
			it = protocol.TranscriptItem{Kind: protocol.ItemStop, TurnID: turn, Reason: protocol.StopCompleted}
		}
		put(session.Record{Type: session.RecordItem, Item: &it})
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestResumingA50000EventLogShowsTheLastTurn: a session whose log holds
// 50,000 records resumes, shows its last turn and takes the next message.
func TestResumingA50000EventLogShowsTheLastTurn(t *testing.T) {
	app, ws := newTestApp(t, llmtest.Script{
		When:      []llmtest.Rule{{LastContains: "checkpoint summary", Response: llmtest.Response{Text: llmtest.Text("THE SUMMARY")}}},
		Responses: []llmtest.Response{{Text: llmtest.Text("still here")}}})
	const n = 50_000
	writeLongLog(t, app.kit.Env().DataDir, ws, "long-1", n)
	start := time.Now()
	snap, err := app.ResumeSession("long-1")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("resumed %d records in %v", n, time.Since(start))
	last := n/4 - 1
	if len(snap.Transcript) != n || snap.SessionID != "long-1" {
		t.Fatalf("resumed %d items of session %q", len(snap.Transcript), snap.SessionID)
	}
	if got := snap.Transcript[n-4].Text; got != fmt.Sprintf("prompt %d", last) {
		t.Fatalf("the last turn's prompt is %q", got)
	}
	if got := lastReply(snap); got != fmt.Sprintf("reply %d", last) {
		t.Fatalf("the last turn's reply is %q", got)
	}
	if id := sendAndWait(t, app, "go on"); id != "long-1" || lastReply(app.Snapshot()) != "still here" {
		t.Fatalf("the next message went to %s: %q", id, lastReply(app.Snapshot()))
	}
}
