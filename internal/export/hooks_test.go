package export

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

// hooked is a session of two priced turns whose calls the user's hooks
// saw: one a hook denied, one a quiet hook let go and another rewrote.
func hooked() *session.Loaded {
	c1, c2 := 0.0123, 0.0077
	deny := protocol.HookRun{Name: "./guard.sh", Event: "PreToolUse", Source: "workspace", ToolName: "Bash", Decision: "deny",
		Verdict: "deny", Reason: "no network in CI", ExitCode: 2, DurationMs: 12, Stderr: "token " + ghToken}
	quiet := protocol.HookRun{Name: "log-call", Event: "PreToolUse", Source: "user", Verdict: "no objection", DurationMs: 3}
	rewrite := protocol.HookRun{Name: "pin-npm", Event: "PreToolUse", Source: "user", Verdict: "allow, rewrote the input", Decision: "allow", Rewrote: true, DurationMs: 5}
	return &session.Loaded{
		Meta: session.Meta{ID: "s-hooks", Workspace: "/w", Title: "hooks"},
		Items: []protocol.TranscriptItem{
			{Kind: protocol.ItemUser, TurnID: "t1", Text: "fetch it"},
			{Kind: protocol.ItemTool, TurnID: "t1", ID: "c1", Tool: "bash", IsError: true, Hooks: []protocol.HookRun{deny},
				Args:   raw(map[string]string{"action": "exec", "command": "curl example.com"}),
				Result: raw(map[string]any{"ok": false, "error": map[string]string{"code": "denied_by_hook", "message": "no network in CI"}})},
			{Kind: protocol.ItemStop, TurnID: "t1", Reason: protocol.StopCompleted, Usage: &protocol.Usage{PromptTokens: 100, CompletionTokens: 20}, Cost: &c1},
			{Kind: protocol.ItemUser, TurnID: "t2", Text: "install"},
			{Kind: protocol.ItemTool, TurnID: "t2", ID: "c2", Tool: "bash", Hooks: []protocol.HookRun{quiet, rewrite},
				Args:     raw(map[string]string{"action": "exec", "command": "npm install"}),
				Rewrite:  &protocol.HookRewrite{Hook: "pin-npm", Original: raw(map[string]string{"action": "exec", "command": "npm install"}), Args: raw(map[string]string{"action": "exec", "command": "npm ci"})},
				Result:   raw(map[string]any{"exitCode": 0, "stdout": "added 3 packages", "stderr": ""}),
				Approval: &protocol.CallApproval{By: "user"}},
			{Kind: protocol.ItemStop, TurnID: "t2", Reason: protocol.StopCompleted, Usage: &protocol.Usage{PromptTokens: 50, CompletionTokens: 10}, Cost: &c2},
		},
	}
}

func exportOf(t *testing.T, l *session.Loaded, format string) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, l, Options{Format: format}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The Markdown export lists the hooks that ran on each call with their
// verdicts, names the hook that denied or rewrote it on the call's line,
// shows what ran (the rewrite), and gives the session's tokens and cost.
func TestExportMarkdownHasHooksAndCosts(t *testing.T) {
	md := exportOf(t, hooked(), Markdown)
	for _, want := range []string{
		"- Spent: 150 tokens in, 30 out · $0.0200\n",
		"<code>bash curl example.com</code> — denied by hook ./guard.sh — failed</summary>",
		"- hook ./guard.sh (PreToolUse, workspace hook, as Bash): deny — no network in CI · 12 ms\n",
		"<code>bash npm ci</code> — approved by the user — allowed by hook pin-npm; rewritten by hook pin-npm</summary>",
		"- hook log-call (PreToolUse): no objection · 3 ms\n",
		"```sh\nnpm ci\n```",
		"turn ended: completed · 50 tokens in, 10 out · $0.0077",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q\n%s", want, md)
		}
	}
	// A session without prices says so; one without usage says nothing.
	l := hooked()
	l.Items[2].Cost, l.Items[5].Cost = nil, nil
	if md := exportOf(t, l, Markdown); !strings.Contains(md, "- Spent: 150 tokens in, 30 out · no price\n") {
		t.Errorf("without prices:\n%s", md)
	}
}

// JSON Lines carry each call's hook runs (masked) and each turn's cost.
func TestExportJSONLinesHasHooksAndCosts(t *testing.T) {
	out := exportOf(t, hooked(), JSONLines)
	noSecrets(t, "jsonl", out)
	var hooks, costs int
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var it protocol.TranscriptItem
		if err := json.Unmarshal([]byte(l), &it); err != nil {
			t.Fatal(err)
		}
		hooks += len(it.Hooks)
		if it.Cost != nil {
			costs++
		}
		if it.ID == "c1" && (it.Hooks[0].Decision != "deny" || it.Hooks[0].Reason != "no network in CI" || !strings.Contains(it.Hooks[0].Stderr, Masked)) {
			t.Errorf("the denying hook: %+v", it.Hooks[0])
		}
	}
	if hooks != 3 || costs != 2 {
		t.Fatalf("%d hook runs, %d costs:\n%s", hooks, costs, out)
	}
}
