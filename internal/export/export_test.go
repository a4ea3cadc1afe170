package export

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

const (
	apiKey   = "sk-live-0123456789abcdefghij"
	envToken = "tok-env-value-42"
	ghToken  = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	awsKey   = "AKIAIOSFODNN7EXAMPLE"
)

func raw(v any) json.RawMessage { b, _ := json.Marshal(v); return b }

func decision(callID string, kind protocol.DecisionKind, by approval.DecidedBy, note string) session.Record {
	return session.Record{Type: session.RecordDecision, Data: raw(approval.Record{Kind: approval.RecordDecision,
		CallID: callID, Decision: &protocol.Decision{Kind: kind, Note: note}, By: by})}
}

// sample is a session of two turns: a patch the user approved, a command
// approved for the session, the same command run again under that rule,
// a rejected write; secrets in a prompt, a command's output and a file.
func sample() *session.Loaded {
	cost := 0.0123
	rule := protocol.Rule{ID: "r1", Tool: "bash", Commands: [][]string{{"npm", "test"}}, Action: "exec", Summary: "run exactly `npm test` (exec, in the workspace root)"}
	return &session.Loaded{
		Meta: session.Meta{ID: "20260101-abc", Workspace: "/w", CreatedMs: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), Title: "fix the build"},
		Items: []protocol.TranscriptItem{
			{Kind: protocol.ItemUser, TurnID: "t1", Text: "fix the build; my key is " + apiKey + " and GITHUB_TOKEN=" + ghToken},
			{Kind: protocol.ItemAssistant, TurnID: "t1", Text: "Patching <b>main.go</b>."},
			{Kind: protocol.ItemTool, TurnID: "t1", ID: "c1", Tool: "apply_patch",
				Args: raw(map[string]string{"patch": "*** Begin Patch\n*** Update File: main.go\n@@\n-old()\n+fixed()\n*** End Patch"}),
				Result: raw(map[string]any{"filesChanged": 1, "operationsApplied": 1, "fileChanges": []map[string]any{{"path": "main.go", "operation": "update",
					"linesAdded": 1, "linesRemoved": 1, "diff": "--- a/main.go\n+++ b/main.go\n@@ -1 +1 @@\n-old()\n+fixed()\n"}}}),
				Approval: &protocol.CallApproval{By: "user"}},
			{Kind: protocol.ItemTool, TurnID: "t1", ID: "c2", Tool: "bash",
				Args:     raw(map[string]string{"action": "exec", "command": "npm test"}),
				Result:   raw(map[string]any{"exitCode": 0, "stdout": "ok 1 - builds\nAWS=" + awsKey + "\nMY_SECRET=" + envToken + "\n", "stderr": ""}),
				Approval: &protocol.CallApproval{By: "user"}},
			{Kind: protocol.ItemStop, TurnID: "t1", Reason: protocol.StopCompleted, Usage: &protocol.Usage{PromptTokens: 100, CompletionTokens: 20}, Cost: &cost},
			{Kind: protocol.ItemUser, TurnID: "t2", Text: "run the tests again and write the key file"},
			{Kind: protocol.ItemTool, TurnID: "t2", ID: "c3", Tool: "bash",
				Args:     raw(map[string]string{"action": "exec", "command": "npm test"}),
				Result:   raw(map[string]any{"exitCode": 1, "stdout": "", "stderr": "1 failing"}),
				Approval: &protocol.CallApproval{By: "rule", Rules: []protocol.Rule{rule}}},
			{Kind: protocol.ItemTool, TurnID: "t2", ID: "c4", Tool: "write_file", IsError: true,
				Args:   raw(map[string]string{"path": "id_rsa", "content": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\n"}),
				Result: raw(map[string]any{"ok": false, "error": map[string]string{"code": "rejected", "message": "the user rejected the call"}})},
			{Kind: protocol.ItemStop, TurnID: "t2", Reason: protocol.StopBlockedByApproval},
		},
		Records: []session.Record{
			decision("c1", protocol.DecisionOnce, approval.ByUser, ""),
			decision("c2", protocol.DecisionSession, approval.ByUser, ""),
			decision("c4", protocol.DecisionReject, approval.ByUser, "never write keys"),
		},
	}
}

func export(t *testing.T, format string, o Options) string {
	t.Helper()
	o.Format = format
	if o.Mask == nil {
		o.Mask = NewMasker([]string{apiKey}, []string{"MY_SECRET=" + envToken, "HOME=/home/u"})
	}
	var b bytes.Buffer
	if err := Write(&b, sample(), o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func noSecrets(t *testing.T, format, out string) {
	t.Helper()
	for _, s := range []string{apiKey, envToken, ghToken, awsKey, "b3BlbnNzaC1rZXk"} {
		if strings.Contains(out, s) {
			t.Errorf("%s export shows the secret %q", format, s)
		}
	}
}

// A session with a patch, a command, a rule-approved command and a
// rejection, to Markdown: each call folded with who decided and by which
// rule, the diff, the command and its output, the turn's cost; every
// secret masked.
func TestExportMarkdown(t *testing.T) {
	md := export(t, Markdown, Options{})
	noSecrets(t, "md", md)
	for _, want := range []string{
		"# fix the build",
		"## Turn 1", "## Turn 2",
		"<details><summary><code>apply_patch main.go</code> — approved by the user (once)</summary>",
		"```diff\n--- a/main.go\n+++ b/main.go\n@@ -1 +1 @@\n-old()\n+fixed()\n```",
		"<code>bash npm test</code> — approved by the user (session)",
		"```sh\nnpm test\n```",
		"output (exit 0):",
		"<code>bash npm test</code> — approved by a session rule: run exactly `npm test` (exec, in the workspace root)",
		"<code>write_file id_rsa</code> — rejected by the user: “never write keys” — failed",
		"turn ended: completed · 100 tokens in, 20 out · $0.0123",
		"turn ended: blocked\\_by\\_approval",
		"GITHUB_TOKEN=" + Masked, "MY_SECRET=" + Masked,
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q\n%s", want, md)
		}
	}
	if part := export(t, Markdown, Options{From: 2, To: 2}); strings.Contains(part, "## Turn 1") || !strings.Contains(part, "## Turn 2") {
		t.Errorf("--turns 2-2:\n%s", part)
	}
}

// JSON Lines: one masked transcript item per line.
func TestExportJSONLines(t *testing.T) {
	out := export(t, JSONLines, Options{From: 1, To: 1})
	noSecrets(t, "jsonl", out)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 {
		t.Fatalf("%d lines:\n%s", len(lines), out)
	}
	for _, l := range lines {
		var it protocol.TranscriptItem
		if err := json.Unmarshal([]byte(l), &it); err != nil || it.TurnID != "t1" {
			t.Fatalf("line %s: %v", l, err)
		}
	}
}

func TestParseTurns(t *testing.T) {
	for in, want := range map[string][2]int{"": {0, 0}, "2": {2, 2}, "2-": {2, 0}, "1-3": {1, 3}} {
		if a, b, err := ParseTurns(in); err != nil || a != want[0] || b != want[1] {
			t.Errorf("%q: %d %d %v", in, a, b, err)
		}
	}
	for _, bad := range []string{"0", "3-1", "x", "-2"} {
		if _, _, err := ParseTurns(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
