package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
)

// A session exec saved, exported by its id: Markdown on stdout and an
// HTML file with -o, the key in the prompt and a secret variable's value
// in the command's output masked; a session that does not exist is an
// error (1), bad flags are usage (2).
func TestExportASavedSession(t *testing.T) {
	const key = "sk-test-0123456789abcdefXYZ"
	t.Setenv("DEPLOY_TOKEN", "hunter2-deploy-value")
	patch := `{"patch":"*** Begin Patch\n*** Add File: notes.txt\n+hi\n*** End Patch"}`
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "apply_patch", Arguments: llmtest.Text(patch)}}},
		{ToolCalls: []llmtest.ToolCall{{ID: "call_2", Name: "bash", Arguments: llmtest.Text(`{"action":"exec","command":"echo hunter2-deploy-value"}`)}}},
		{Text: llmtest.Text("Done.")},
	}})
	env := testEnv(t, nil)
	ws := t.TempDir()
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "add notes; the key is "+key,
		"--approval", "auto", "--base-url", srv.URL, "--model", "fake-model", "--json")
	if r.code != ExitCompleted {
		t.Fatalf("exec: exit %d\n%s", r.code, r.stderr)
	}
	id := parseEvents(t, r.stdout)[0].SessionID
	run := func(args ...string) execResult {
		var out, errb bytes.Buffer
		code := Export(args, env, os.Environ(), &out, &errb)
		return execResult{code, out.String(), errb.String()}
	}
	md := run("--session", id)
	if md.code != ExitOK {
		t.Fatalf("export: exit %d\n%s", md.code, md.stderr)
	}
	for _, want := range []string{"## Turn 1", "apply_patch notes.txt", "+hi", "bash echo", "Done."} {
		if !strings.Contains(md.stdout, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md.stdout)
		}
	}
	if strings.Contains(md.stdout, key) || strings.Contains(md.stdout, "hunter2-deploy-value") {
		t.Errorf("a secret is in the export:\n%s", md.stdout)
	}
	file := filepath.Join(t.TempDir(), "s.html")
	if r := run("--session", id, "--format", "html", "--turns", "1", "-o", file); r.code != ExitOK {
		t.Fatalf("html: exit %d\n%s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(file); err != nil || !strings.Contains(string(b), "default-src 'none'") || strings.Contains(string(b), key) {
		t.Fatalf("html file: %v\n%.500s", err, b)
	}
	if r := run("--session", "20990101-000000-nope"); r.code != ExitError {
		t.Errorf("an unknown session: exit %d\n%s", r.code, r.stderr)
	}
	for _, args := range [][]string{{}, {"--session", id, "--format", "pdf"}, {"--session", id, "--turns", "3-1"}, {"--session", id, "--images", "all"}} {
		if r := run(args...); r.code != ExitUsage {
			t.Errorf("%v: exit %d, want 2", args, r.code)
		}
	}
}
