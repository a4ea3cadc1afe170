//go:build linux

package cli

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/settings"
	"gatehouse/internal/supervisor/suptest"
)

// `gatehouse exec` runs commands under the helper, confined like the
// window's: a write in the workspace happens, one in the home folder is
// refused; with the sandbox off in the saved settings it happens.
func TestExecRunsCommandsConfined(t *testing.T) {
	suptest.Confining(t)
	for _, mode := range []string{sandbox.ModeWorkspaceWrite, sandbox.ModeOff} {
		t.Run(mode, func(t *testing.T) {
			root := t.TempDir()
			ws, home, tmp := filepath.Join(root, "ws"), filepath.Join(root, "home"), filepath.Join(root, "tmp")
			for _, d := range []string{ws, home, tmp} {
				if err := os.Mkdir(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
				{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "bash", Arguments: llmtest.Text(`{"action":"exec","command":"echo in > inside.txt; echo out > \"$HOME/x\""}`)}}},
				{Text: llmtest.Text("done")},
			}})
			env := testEnv(t, nil)
			env.ProcEnv = func() []string { return append(os.Environ(), "HOME="+home, "TMPDIR="+tmp) }
			s := settings.Defaults()
			s.Sandbox = mode
			if err := settings.NewStore(env.ConfigDir).Save(s); err != nil {
				t.Fatal(err)
			}
			r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "write", "--approval", "auto",
				"--base-url", srv.URL, "--model", "fake-model", "--json")
			if r.code != ExitCompleted {
				t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
			}
			if b, err := os.ReadFile(filepath.Join(ws, "inside.txt")); err != nil || string(b) != "in\n" {
				t.Fatalf("inside.txt: %q %v", b, err)
			}
			_, err := os.Stat(filepath.Join(home, "x"))
			if wrote := err == nil; wrote != (mode == sandbox.ModeOff) {
				t.Fatalf("sandbox %s: the write to ~/x happened: %v", mode, wrote)
			}
		})
	}
}

// A subagent's commands run as its parent's: a `general` child started by
// `gatehouse exec` is confined too (its host passes no process options of
// its own; the child takes its parent's supervisor and sandbox).
func TestExecChildCommandsAreConfined(t *testing.T) {
	suptest.Confining(t)
	root := t.TempDir()
	ws, home, tmp := filepath.Join(root, "ws"), filepath.Join(root, "home"), filepath.Join(root, "tmp")
	for _, d := range []string{ws, home, tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "p1", Name: "delegate_general", Arguments: llmtest.Text(`{"task":"write the files"}`)}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "bash", Arguments: llmtest.Text(`{"action":"exec","command":"echo in > inside.txt; echo out > \"$HOME/x\""}`)}}},
		{Text: llmtest.Text("child done")},
		{Text: llmtest.Text("done")},
	}})
	env := testEnv(t, nil)
	env.ProcEnv = func() []string { return append(os.Environ(), "HOME="+home, "TMPDIR="+tmp) }
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "delegate", "--approval", "auto",
		"--base-url", srv.URL, "--model", "fake-model", "--json")
	if r.code != ExitCompleted {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "inside.txt")); err != nil || string(b) != "in\n" {
		t.Fatalf("the child's write in the workspace: %q %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(home, "x")); err == nil {
		t.Fatal("the child's command wrote ~/x: it ran unconfined")
	}
}

// `gatehouse tool bash` runs its command under the helper, confined: a
// write in the workspace happens, one in the home folder is refused.
func TestToolBashRunsConfined(t *testing.T) {
	suptest.Confining(t)
	root := t.TempDir()
	ws, home, tmp := filepath.Join(root, "ws"), filepath.Join(root, "home"), filepath.Join(root, "tmp")
	for _, d := range []string{ws, home, tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("TMPDIR", tmp) // not /tmp: its own would be private, the home below it hidden
	t.Setenv("SHELL", "/bin/sh")
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local/share"))
	var out, errOut strings.Builder
	code := Tool([]string{"bash", "--workspace", ws, "--args", `{"action":"exec","command":"echo in > inside.txt; echo out > \"$HOME/x\""}`},
		strings.NewReader(""), &out, &errOut)
	if code != ExitOK {
		t.Fatalf("exit %d: %s %s", code, out.String(), errOut.String())
	}
	if b, err := os.ReadFile(filepath.Join(ws, "inside.txt")); err != nil || string(b) != "in\n" {
		t.Fatalf("inside.txt: %q %v (%s)", b, err, out.String())
	}
	if _, err := os.Stat(filepath.Join(home, "x")); err == nil {
		t.Fatalf("gatehouse tool bash wrote ~/x: it ran unconfined\n%s", out.String())
	}
	if !strings.Contains(out.String(), "sandbox") {
		t.Fatalf("the result does not say the sandbox refused the write: %s", out.String())
	}
}

// A headless turn in auto whose model runs `cat .env` (and cp, python)
// under a standing deny on reading .env: the command fails, the secret
// never reaches the model, and the result tells it the user's policy
// hides the file.
func TestExecCommandsCannotReadPolicyDeniedFiles(t *testing.T) {
	suptest.Confining(t)
	if !sandbox.Detect().Namespaces() {
		t.Skip("no namespaces here: Landlock alone cannot hide a workspace file (sandbox.CannotHide, asserted in package sandbox)")
	}
	root := t.TempDir()
	ws, home, tmp := filepath.Join(root, "ws"), filepath.Join(root, "home"), filepath.Join(root, "tmp")
	for _, d := range []string{ws, home, tmp} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const secret = "sk-live-policy-denied-4242"
	if err := os.WriteFile(filepath.Join(ws, ".env"), []byte("TOKEN="+secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "bash", Arguments: llmtest.Text(`{"action":"exec","command":"cat .env; cp .env e.txt; cat e.txt; python3 -c \"print(open('.env').read())\""}`)}}},
		{Text: llmtest.Text("done")},
	}})
	env := testEnv(t, nil)
	env.ProcEnv = func() []string { return append(os.Environ(), "HOME="+home, "TMPDIR="+tmp) }
	if err := os.MkdirAll(env.ConfigDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(env.ConfigDir, "policy.toml"), []byte(`
[[rule]]
decision = "deny"
tool = "read_file"
files = [".env", "keys/**"]
reason = "secrets stay out"
`), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "read the env", "--approval", "auto",
		"--base-url", srv.URL, "--model", "fake-model", "--json")
	if r.code != ExitCompleted {
		t.Fatalf("exit %d; stderr:\n%s", r.code, r.stderr)
	}
	reqs := srv.Handler.ModelRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests, want 2", len(reqs))
	}
	for i, q := range reqs {
		if strings.Contains(string(q.Body), secret) {
			t.Fatalf("request %d carried the denied secret to the model:\n%s", i, q.Body)
		}
	}
	if strings.Contains(r.stdout, secret) {
		t.Fatal("the secret is in the turn's events")
	}
	if !strings.Contains(string(reqs[1].Body), "Your policy denies reading .env") {
		t.Fatalf("the command's result does not tell the model why .env failed:\n%s", reqs[1].Body)
	}
}
