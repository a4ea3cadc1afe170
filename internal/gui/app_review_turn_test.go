package gui

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/agents"
	"gatehouse/internal/gitview"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// A turn's Review: the reviewer is sent what that turn wrote (the undo
// store's before and after, not git: the folder is no repository), not the
// other turns' changes, and its finding anchors to the turn's hunk.
func TestReviewTurnSendsThatTurnsDiff(t *testing.T) {
	args, _ := json.Marshal(map[string]any{"findings": []map[string]any{
		{"severity": "medium", "file": "a.txt", "startLine": 2, "endLine": 2, "title": "shouting", "explanation": "TWO is loud"},
	}})
	app, ws, srv := newTestAppServer(t, llmtest.Script{Responses: []llmtest.Response{
		writeCall("w1", "notes.txt", "first turn\\n", 0),
		{Text: llmtest.Text("Wrote notes.")},
		writeCall("w2", "a.txt", "one\\nTWO\\nthree\\n", 0),
		{Text: llmtest.Text("Changed a.")},
		{ToolCalls: []llmtest.ToolCall{{ID: "r1", Name: agents.FindingsTool, Arguments: llmtest.Text(string(args))}}},
		{Text: llmtest.Text("One finding.")},
	}})
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("one\ntwo\nthree\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, prompt := range []string{"write notes", "change a"} {
		if _, err := app.Submit(protocol.Submission{Text: prompt}); err != nil {
			t.Fatal(err)
		}
		waitIdle(t, app)
	}
	var turns []string
	for _, it := range app.Snapshot().Transcript {
		if it.Kind == protocol.ItemUser {
			turns = append(turns, it.TurnID)
		}
	}
	if len(turns) != 2 {
		t.Fatalf("turns %v", turns)
	}
	rep, err := app.ReviewChanges(gitview.Target{Kind: gitview.TargetTurn, Ref: turns[1]})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 1 || rep.Files[0].Path != "a.txt" || rep.Files[0].Status != "M" || len(rep.Findings) != 1 ||
		rep.Findings[0].HunkID != rep.Files[0].Hunks[0].ID || rep.Target.Kind != gitview.TargetTurn {
		t.Fatalf("report %+v", rep)
	}
	body, _ := srv.ChatRequest(4)
	if !strings.Contains(string(body), `-two\n+TWO`) || strings.Contains(string(body), "first turn") {
		t.Fatalf("the reviewer was not sent the turn's diff alone:\n%.1500s", body)
	}
	if _, err := app.ReviewChanges(gitview.Target{Kind: gitview.TargetTurn}); err == nil {
		t.Fatal("a turn target without a turn was taken")
	}
}
