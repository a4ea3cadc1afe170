package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/hooks"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// writeHooks writes the user's hooks file of env.
func writeHooks(t *testing.T, configDir, conf string) {
	t.Helper()
	if err := os.MkdirAll(configDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(configDir, "hooks.json"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A hook's deny reaches the call's tool.finished event with the hook's
// name, event, source, verdict, reason, exit code and stderr: what the
// card shows and what --json consumers read.
func TestExecToolFinishedNamesTheDenyingHook(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "bash", Arguments: llmtest.Text(`{"action":"exec","command":"rm -rf build"}`)}}},
		{Text: llmtest.Text("ok")},
	}})
	env := testEnv(t, nil)
	writeHooks(t, env.ConfigDir, `{"hooks": {"PreToolUse": [
		{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo no rm here >&2; exit 2"}]},
		{"matcher": "bash", "hooks": [{"type": "command", "command": "echo fine"}]}]}}`)
	r := runExec(t, context.Background(), env, "--workspace", t.TempDir(), "--prompt", "clean",
		"--approval", "auto", "--base-url", srv.URL, "--model", "fake-model", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	var fin protocol.ToolFinishedPayload
	for _, e := range parseEvents(t, r.stdout) {
		if p, ok := e.Payload.(protocol.ToolFinishedPayload); ok {
			fin = p
		}
	}
	if !fin.IsError || len(fin.Hooks) != 2 {
		t.Fatalf("tool.finished %+v", fin)
	}
	byName := map[string]protocol.HookRun{}
	for _, h := range fin.Hooks {
		byName[h.Name] = h
	}
	deny := byName["echo no rm here >&2; exit 2"]
	if deny.Event != "PreToolUse" || deny.Source != "user" || deny.Decision != "deny" || deny.Verdict != "deny" ||
		deny.ExitCode != 2 || deny.Reason != "no rm here" || deny.Stderr != "no rm here\n" || deny.ToolName != "Bash" {
		t.Errorf("the denying hook: %+v", deny)
	}
	if ok := byName["echo fine"]; ok.Verdict != "no objection" || ok.Stdout != "fine\n" || ok.ToolName != "bash" {
		t.Errorf("the other hook: %+v", ok)
	}
}

// A hook's ask opens the approval request in auto mode, and the request
// lists the hooks with what each said; when a hook rewrote the call the
// request shows the call as rewritten (the preview's content) and names the
// rewriting hook with the model's own arguments beside it.
func TestExecApprovalRequestNamesTheAskingAndRewritingHooks(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "write_file", Arguments: llmtest.Text(`{"path":"notes.txt","content":"from the model"}`)}}},
	}})
	env := testEnv(t, nil)
	writeHooks(t, env.ConfigDir, `{"hooks": {"PreToolUse": [
		{"matcher": "Write", "hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\": {\"permissionDecision\": \"ask\", \"permissionDecisionReason\": \"release freeze\"}}'"}]},
		{"matcher": "write_file", "hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\": {\"permissionDecision\": \"defer\", \"updatedInput\": {\"path\": \"notes.txt\", \"content\": \"from the hook\"}}}'"}]}]}}`)
	ws := t.TempDir()
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "write",
		"--approval", "auto", "--base-url", srv.URL, "--model", "fake-model", "--json")
	if r.code != ExitBlockedByApproval {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	var req *protocol.ApprovalRequestedPayload
	var fin protocol.ToolFinishedPayload
	for _, e := range parseEvents(t, r.stdout) {
		switch p := e.Payload.(type) {
		case protocol.ApprovalRequestedPayload:
			req = &p
		case protocol.ToolFinishedPayload:
			fin = p
		}
	}
	if req == nil {
		t.Fatal("no approval was requested in auto mode")
	}
	if len(req.Hooks) != 2 {
		t.Fatalf("request hooks %+v", req.Hooks)
	}
	var asked bool
	for _, h := range req.Hooks {
		if h.Decision == "ask" && h.Reason == "release freeze" && strings.Contains(h.Name, `"ask"`) {
			asked = true
		}
	}
	if !asked {
		t.Errorf("no hook named as asking: %+v", req.Hooks)
	}
	if req.Rewrite == nil || !strings.Contains(req.Rewrite.Hook, `"defer"`) ||
		!strings.Contains(string(req.Rewrite.Original), "from the model") || !strings.Contains(string(req.Rewrite.Args), "from the hook") {
		t.Fatalf("rewrite %+v", req.Rewrite)
	}
	if len(req.Preview.Files) != 1 || !strings.Contains(req.Preview.Files[0].NewContent, "from the hook") {
		b, _ := json.Marshal(req.Preview)
		t.Errorf("the preview does not show the rewritten call: %s", b)
	}
	if fin.Rewrite == nil || len(fin.Hooks) != 2 {
		t.Errorf("tool.finished %+v", fin)
	}
	if _, err := os.Stat(filepath.Join(ws, "notes.txt")); !os.IsNotExist(err) {
		t.Errorf("the file was written: %v", err)
	}
}

// A hook turned off in Settings (hooksOff) does not run in a session;
// the others do.
func TestExecSkipsAHookTurnedOff(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "bash", Arguments: llmtest.Text(`{"action":"exec","command":"true"}`)}}},
		{Text: llmtest.Text("ok")},
	}})
	env := testEnv(t, nil)
	conf := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "touch off-ran"}, {"type": "command", "command": "touch on-ran"}]}]}}`
	writeHooks(t, env.ConfigDir, conf)
	hs, err := hooks.Parse([]byte(conf), "hooks.json")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(env.ConfigDir, "settings.json"), []byte(`{"hooksOff": ["`+hs[0].ID()+`"]}`), 0o600)
	ws := t.TempDir()
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "go",
		"--approval", "auto", "--base-url", srv.URL, "--model", "fake-model")
	if r.code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "off-ran")); !os.IsNotExist(err) {
		t.Errorf("the hook turned off ran: %v", err)
	}
	if _, err := os.Stat(filepath.Join(ws, "on-ran")); err != nil {
		t.Errorf("the other hook did not run: %v", err)
	}
}
