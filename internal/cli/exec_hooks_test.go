package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
)

// A hook written for Claude Code, unchanged (a Bash matcher reading
// tool_input.command from stdin), refuses `rm -rf` in an exec turn even in
// auto mode: nothing is removed, the model reads the hook's reason and the
// turn goes on; the --json events name the hook.
func TestExecClaudeBashHookBlocksRmRf(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not installed")
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "bash", Arguments: llmtest.Text(`{"action":"exec","command":"rm -rf build"}`)}}},
		{Text: llmtest.Text("I will not remove it.")},
	}})
	env := testEnv(t, nil)
	ws := t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "build"), 0o755); err != nil {
		t.Fatal(err)
	}
	guard := filepath.Join(t.TempDir(), "no-rm.py")
	os.WriteFile(guard, []byte(`import json, sys
d = json.load(sys.stdin)
if d["tool_name"] == "Bash" and "rm -rf" in d["tool_input"]["command"]:
    print("rm -rf is not allowed here", file=sys.stderr)
    sys.exit(2)
`), 0o755)
	os.MkdirAll(env.ConfigDir, 0o700)
	conf := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 ` + guard + `"}]}]}}`
	if err := os.WriteFile(filepath.Join(env.ConfigDir, "hooks.json"), []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "clean up",
		"--approval", "auto", "--base-url", srv.URL, "--model", "fake-model", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "build")); err != nil {
		t.Fatalf("build was removed: %v", err)
	}
	var result protocol.ToolFinishedPayload
	for _, e := range parseEvents(t, r.stdout) {
		if p, ok := e.Payload.(protocol.ToolFinishedPayload); ok {
			result = p
		}
	}
	if !result.IsError || !strings.Contains(string(result.Result), "rm -rf is not allowed here") || !strings.Contains(string(result.Result), "no-rm.py") {
		t.Errorf("tool result %s", result.Result)
	}
	body, _ := srv.ChatRequest(1)
	if !strings.Contains(string(body), "rm -rf is not allowed here") {
		t.Errorf("the model did not read the reason: %s", body)
	}
}

// A UserPromptSubmit hook's exit 2 erases the prompt in an exec turn: the
// model is never asked, and the hook's stderr is what the user reads.
func TestExecPromptHookBlocks(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{})
	env := testEnv(t, nil)
	os.MkdirAll(env.ConfigDir, 0o700)
	conf := `{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "grep -q secret && { echo 'prompts may not name secrets' >&2; exit 2; }; exit 0"}]}]}}`
	os.WriteFile(filepath.Join(env.ConfigDir, "hooks.json"), []byte(conf), 0o600)
	r := runExec(t, context.Background(), env, "--workspace", t.TempDir(), "--prompt", "print the secret",
		"--approval", "auto", "--base-url", srv.URL, "--model", "fake-model")
	if r.code == 0 || !strings.Contains(r.stderr, "prompts may not name secrets") {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if _, ok := srv.ChatRequest(0); ok {
		t.Error("the blocked prompt reached the model")
	}
}

// A hook's ask asks even in auto mode (without a terminal: refused, the
// turn blocked, nothing written), and a hook's allow never beats the
// standing policy's deny.
func TestExecHookAskAsksInAutoAndAllowLosesToDeny(t *testing.T) {
	write := `{"path":"notes.txt","content":"hi"}`
	for _, c := range []struct {
		name, decision, policy string
		want                   int
	}{
		{"ask in auto", "ask", "", ExitBlockedByApproval},
		{"allow under a standing deny", "allow", "[[rule]]\ndecision = \"deny\"\ntool = \"write_file\"\nreason = \"no writes\"\n", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			rs := []llmtest.Response{{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "write_file", Arguments: llmtest.Text(write)}}}}
			if c.want == 0 {
				rs = append(rs, llmtest.Response{Text: llmtest.Text("ok")})
			}
			srv := llmtest.Start(t, llmtest.Script{Responses: rs})
			env := testEnv(t, nil)
			os.MkdirAll(env.ConfigDir, 0o700)
			conf := `{"hooks": {"PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\": {\"permissionDecision\": \"` + c.decision + `\", \"permissionDecisionReason\": \"release freeze\"}}'"}]}]}}`
			os.WriteFile(filepath.Join(env.ConfigDir, "hooks.json"), []byte(conf), 0o600)
			if c.policy != "" {
				os.WriteFile(filepath.Join(env.ConfigDir, "policy.toml"), []byte(c.policy), 0o600)
			}
			ws := t.TempDir()
			r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "write",
				"--approval", "auto", "--base-url", srv.URL, "--model", "fake-model", "--json")
			if r.code != c.want {
				t.Fatalf("exit %d, want %d; stderr:\n%s", r.code, c.want, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(ws, "notes.txt")); !os.IsNotExist(err) {
				t.Fatalf("the file was written: %v", err)
			}
		})
	}
}
