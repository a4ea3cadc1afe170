package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/agents"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/review"
)

// gatehouse review --uncommitted reviews the untracked files that are not
// ignored as added files (the repository is untrusted: git runs in safe
// mode): the reviewer is sent the new file's lines, and a finding on it
// anchors to its hunk; an ignored file is not sent.
func TestReviewUncommittedHoldsUntrackedFiles(t *testing.T) {
	dir := reviewRepo(t)
	os.WriteFile(filepath.Join(dir, "new.sh"), []byte("#!/bin/sh\nrm -rf \"$1\"/\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("secret.env\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.env"), []byte("TOKEN=ignored-file-content\n"), 0o644)
	b, _ := json.Marshal(map[string]any{"findings": []map[string]any{{"severity": "high", "file": "new.sh", "startLine": 2, "endLine": 2,
		"title": "unquoted rm", "explanation": "an empty $1 removes /"}}})
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: agents.FindingsTool, Arguments: llmtest.Text(string(b))}}},
		{Text: llmtest.Text("Reviewed.")},
	}})
	var out, errb bytes.Buffer
	code := Review(context.Background(), []string{"--workspace", dir, "--uncommitted", "--json", "--base-url", srv.URL, "--model", "fake-model"},
		testEnv(t, nil), strings.NewReader(""), &out, &errb)
	if code != ExitFindings {
		t.Fatalf("exit %d; stderr:\n%s", code, errb.String())
	}
	body, _ := srv.ChatRequest(0)
	if !strings.Contains(string(body), `+++ b/new.sh\n@@ -0,0 +1,2 @@\n+#!/bin/sh\n+rm -rf`) || !strings.Contains(string(body), `+2\n`) {
		t.Fatalf("the reviewer was not sent the untracked file and the change:\n%s", body)
	}
	if strings.Contains(string(body), "ignored-file-content") {
		t.Fatal("an ignored file was sent")
	}
	var f review.Finding
	if err := json.Unmarshal(bytes.TrimSpace(out.Bytes()), &f); err != nil || f.File != "new.sh" || f.HunkID == "" {
		t.Fatalf("finding %s: %+v %v", out.String(), f, err)
	}
}
