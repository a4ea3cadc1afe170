package gui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/hooks"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// Settings → Hooks lists the user's and the workspace's hooks with their
// source; turning one off is saved and the next session does not run it;
// Test runs a user hook on a sample and refuses a workspace's; an import
// from a Claude Code settings file marks what would now block and merges
// the picked hooks without duplicates.
func TestSettingsHooksListToggleTestImport(t *testing.T) {
	app, ws := newTestApp(t, llmtest.Script{})
	os.MkdirAll(app.store.Dir(), 0o700)
	os.WriteFile(app.userHooksFile(), []byte(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "command", "command": "echo looked; exit 0", "timeout": 5}]}]}}`), 0o600)
	os.MkdirAll(filepath.Join(ws, ".gatehouse"), 0o755)
	os.WriteFile(filepath.Join(ws, ".gatehouse", "hooks.json"), []byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./ws-stop.sh"}]}]}}`), 0o644)

	v := app.Hooks()
	if len(v.Hooks) != 2 || v.Hooks[0].Source != "user" || v.Hooks[1].Source != "workspace" || !v.Hooks[0].Enabled || v.Hooks[0].TimeoutSec != 5 || len(v.Errors) != 0 {
		t.Fatalf("view %+v", v)
	}
	ran, err := app.TestHook(v.Hooks[0].ID)
	if err != nil || ran.Stdout != "looked\n" || ran.ExitCode != 0 || ran.Verdict != "no objection" || ran.ToolName != "Bash" {
		t.Fatalf("test %+v %v", ran, err)
	}
	if _, err := app.TestHook(v.Hooks[1].ID); err == nil || !strings.Contains(err.Error(), "once you trust them") {
		t.Errorf("a workspace hook was tested: %v", err)
	}
	v, err = app.SetHookOn(v.Hooks[0].ID, false)
	if err != nil || v.Hooks[0].Enabled {
		t.Fatalf("off: %+v %v", v, err)
	}
	if off := app.effective().Settings.HooksOff; len(off) != 1 || off[0] != v.Hooks[0].ID {
		t.Errorf("saved %v", off)
	}
	claude := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(claude, []byte(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
		{"type": "command", "command": "echo looked; exit 0", "timeout": 5},
		{"type": "command", "command": "exit 1"}]}]}}`), 0o600)
	im, err := app.HooksImportPreview(claude, true)
	if err != nil || len(im.Candidates) != 2 {
		t.Fatalf("preview %+v %v", im, err)
	}
	if !im.Candidates[0].Duplicate || im.Candidates[1].WouldBlock == "" {
		t.Errorf("candidates %+v", im.Candidates)
	}
	v, err = app.HooksImport(claude, []hooks.ImportPick{{Key: im.Candidates[0].Key}, {Key: im.Candidates[1].Key}})
	if err != nil || len(v.Hooks) != 3 || v.Hooks[1].Command != "exit 1" {
		t.Fatalf("imported %+v %v", v, err)
	}
	before, _ := os.ReadFile(app.userHooksFile())
	os.WriteFile(claude, []byte(`{"hooks": [`), 0o600)
	if _, err := app.HooksImport(claude, []hooks.ImportPick{{Key: im.Candidates[1].Key}}); err == nil {
		t.Error("a broken settings file was imported")
	}
	if after, _ := os.ReadFile(app.userHooksFile()); string(after) != string(before) {
		t.Errorf("the hooks file changed: %s", after)
	}
}

// Turning a hook off in Settings → Hooks reaches the session already open:
// its next call is not stopped by it, with no new session.
func TestTurningAHookOffReachesTheOpenSession(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "write_file", Arguments: llmtest.Text(`{"path":"a.txt","content":"x"}`)}}},
		{Text: llmtest.Text("first")},
		{ToolCalls: []llmtest.ToolCall{{ID: "c2", Name: "write_file", Arguments: llmtest.Text(`{"path":"b.txt","content":"x"}`)}}},
		{Text: llmtest.Text("second")},
	}})
	cfg := filepath.Join(t.TempDir(), "config")
	os.MkdirAll(cfg, 0o700)
	os.WriteFile(filepath.Join(cfg, "hooks.json"), []byte(`{"hooks": {"PreToolUse": [{"matcher": "write_file", "hooks": [
		{"type": "command", "command": "echo no writes today >&2; exit 2"}]}]}}`), 0o600)
	app, ws := newAppIn(t, srv, cfg, filepath.Join(t.TempDir(), "data"))
	if _, err := app.Submit(protocol.Submission{Text: "one"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	s := app.currentSession()
	if _, err := os.Stat(filepath.Join(ws, "a.txt")); err == nil {
		t.Fatal("the hook did not stop the first write")
	}
	v := app.Hooks()
	if len(v.Hooks) != 1 {
		t.Fatalf("hooks %+v", v)
	}
	if _, err := app.SetHookOn(v.Hooks[0].ID, false); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "two"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if app.currentSession() != s {
		t.Fatal("a new session was opened")
	}
	if _, err := os.Stat(filepath.Join(ws, "b.txt")); err != nil {
		t.Errorf("the hook turned off still stopped the write: %v", err)
	}
}
