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

// From the window: Review of the uncommitted changes returns the
// reviewer's two findings anchored to their hunks; Fix sends one through
// the one Submit, quoting it with its anchor; once the agent edits its
// line the finding is outdated; the session exports to a file.
func TestReviewFixAndExportFromTheWindow(t *testing.T) {
	dir, git := gitRepo(t)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("one\ntwo\n"), 0o644)
	git("add", "-A")
	git("commit", "-q", "-m", "b")
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("main changed\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "b.txt"), []byte("one\ntwo changed\n"), 0o644)
	args, _ := json.Marshal(map[string]any{"findings": []map[string]any{
		{"severity": "high", "file": "a.txt", "startLine": 1, "endLine": 1, "title": "wrong word", "explanation": "changed is wrong", "suggestion": "main fixed"},
		{"severity": "low", "file": "b.txt", "startLine": 2, "endLine": 2, "title": "nit", "explanation": "meh"},
	}})
	app, _, srv := newTestAppServer(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "r1", Name: agents.FindingsTool, Arguments: llmtest.Text(string(args))}}},
		{Text: llmtest.Text("Two findings.")},
		writeCall("w1", "a.txt", "main fixed", 0),
		{Text: llmtest.Text("Fixed.")},
	}})
	if err := app.setWorkspace(dir); err != nil {
		t.Fatal(err)
	}
	rep, err := app.ReviewChanges(gitview.Target{Kind: gitview.TargetUncommitted})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 2 || rep.Findings[0].HunkID != rep.Files[0].Hunks[0].ID || rep.Findings[1].HunkID != rep.Files[1].Hunks[0].ID {
		t.Fatalf("findings %+v\nfiles %+v", rep.Findings, rep.Files)
	}
	if _, err := app.Submit(protocol.Submission{Text: rep.Findings[0].FixMessage()}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	body, _ := srv.ChatRequest(2)
	if !strings.Contains(string(body), "a.txt:1: wrong word") || !strings.Contains(string(body), "main fixed") {
		t.Fatalf("the fix request does not quote the finding: %.800s", body)
	}
	got, err := app.ReviewRefresh(rep.Findings)
	if err != nil || !got[0].Outdated || got[1].Outdated {
		t.Fatalf("after the fix: %+v %v", got, err)
	}
	path, err := app.ExportSession(ExportRequest{Format: "md"})
	if err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(md), "Fix this finding") || !strings.Contains(string(md), "write_file a.txt") || strings.Contains(string(md), "sk-test") {
		t.Fatalf("export %s: %v\n%s", path, err, md)
	}
}
