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

// A turn's Review obeys the user's read deny like the repository's review:
// a turn that changed .env before the user denied reading it does not
// send the reviewer its old secret nor its new text once the deny stands.
func TestReviewTurnLeavesAPolicyDeniedFileOut(t *testing.T) {
	const secret = "OLD-sk-live-3333"
	cfg := filepath.Join(t.TempDir(), "config")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		writeCall("w1", ".env", "TOKEN=rotated\\n", 0),
		writeCall("w2", "a.txt", "one\\nTWO\\n", 0),
		{Text: llmtest.Text("Done.")},
		{Text: llmtest.Text("Nothing to say.")},
	}})
	app, ws := newAppIn(t, srv, cfg, filepath.Join(t.TempDir(), "data"))
	for name, text := range map[string]string{".env": "TOKEN=" + secret + "\n", "a.txt": "one\ntwo\n"} {
		if err := os.WriteFile(filepath.Join(ws, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := app.Submit(protocol.Submission{Text: "rotate"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	var turn string
	for _, it := range app.Snapshot().Transcript {
		if it.Kind == protocol.ItemUser {
			turn = it.TurnID
		}
	}
	if b, _ := os.ReadFile(filepath.Join(ws, ".env")); string(b) != "TOKEN=rotated\n" {
		t.Fatalf("the turn did not write .env: %q", b)
	}
	policy := "[[rule]]\ndecision = \"deny\"\ntool = \"read_file\"\nfiles = [\".env\"]\nreason = \"secrets stay out\"\n"
	if err := os.WriteFile(filepath.Join(cfg, "policy.toml"), []byte(policy), 0o600); err != nil {
		t.Fatal(err)
	}
	n := len(srv.ModelRequests())
	if _, err := app.ReviewChanges(gitview.Target{Kind: gitview.TargetTurn, Ref: turn}); err != nil {
		t.Fatal(err)
	}
	reqs := srv.ModelRequests()[n:]
	if len(reqs) == 0 {
		t.Fatal("the reviewer was asked nothing")
	}
	for _, r := range reqs {
		if b := string(r.Body); strings.Contains(b, secret) || strings.Contains(b, "TOKEN=rotated") {
			t.Fatalf("the reviewer's model was sent the denied file:\n%.1500s", b)
		}
	}
	if !strings.Contains(string(reqs[0].Body), `+TWO`) {
		t.Fatalf("the reviewer was not sent a.txt's change:\n%.1500s", reqs[0].Body)
	}
}
