package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/mcp"
	"gatehouse/internal/protocol"
)

// buildFakeMCPServer builds internal/mcp's fake server for these tests.
func buildFakeMCPServer(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "fakeserver")
	if out, err := exec.Command("go", "build", "-o", bin, "../mcp/testdata/fakeserver").CombinedOutput(); err != nil {
		t.Fatalf("building the fake MCP server: %v\n%s", err, out)
	}
	return bin
}

func TestMCPListPrintsStatesAndToolsAndFailsWhenAServerFailed(t *testing.T) {
	bin := buildFakeMCPServer(t)
	cfg, ws := t.TempDir(), t.TempDir()
	user := mcp.Config{Servers: map[string]mcp.ServerConfig{
		"good": {Command: bin, Env: map[string]string{"FAKE_MODE": "normal"}, DisabledTools: []string{"hang"}},
		"bad":  {Command: bin, Env: map[string]string{"FAKE_MODE": "exit"}},
		"off":  {Command: bin, Disabled: true},
	}}
	if err := mcp.Save(mcp.UserConfigPath(cfg), user); err != nil {
		t.Fatal(err)
	}
	// An untrusted workspace list is named, never started.
	os.MkdirAll(filepath.Join(ws, ".gatehouse"), 0o755)
	os.WriteFile(filepath.Join(ws, ".gatehouse", "mcp.json"), []byte(`{"mcpServers":{"sneaky":{"command":"`+bin+`"}}}`), 0o644)

	var out, errb bytes.Buffer
	code := MCP(context.Background(), []string{"list", "--workspace", ws}, cfg, &out, &errb)
	if code != ExitError {
		t.Fatalf("exit %d with a failed server, want 1\n%s\n%s", code, out.String(), errb.String())
	}
	got := out.String()
	for _, want := range []string{
		"bad: failed", "stderr: fatal: missing configuration FOO_TOKEN",
		"good: ready, 6 tools", "mcp__good__echo  Echoes its text.", "mcp__good__hang (switched off)",
		"off: disabled",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "sneaky") || !strings.Contains(errb.String(), "sneaky runs "+bin) {
		t.Errorf("untrusted workspace server: stdout\n%s\nstderr\n%s", got, errb.String())
	}

	// With only good servers (one given by --mcp-config) it exits 0.
	delete(user.Servers, "bad")
	mcp.Save(mcp.UserConfigPath(cfg), user)
	extra := filepath.Join(t.TempDir(), "extra.json")
	mcp.Save(extra, mcp.Config{Servers: map[string]mcp.ServerConfig{"more": {Command: bin}}})
	out.Reset()
	if code := MCP(context.Background(), []string{"list", "--workspace", ws, "--mcp-config", extra, "--json"}, cfg, &out, &errb); code != ExitOK {
		t.Fatalf("exit %d, want 0\n%s", code, out.String())
	}
	if !strings.Contains(out.String(), `"name": "more"`) || !strings.Contains(out.String(), `"state": "ready"`) {
		t.Errorf("json: %s", out.String())
	}
	if code := MCP(context.Background(), []string{"nope"}, cfg, &out, &errb); code != ExitUsage {
		t.Errorf("unknown subcommand: exit %d", code)
	}
}

// exec starts the user's servers and --mcp-config's, never the workspace's:
// the model sees the MCP tools and a call runs through the gate.
func TestExecCallsAnMCPToolAndNeverStartsTheWorkspaceList(t *testing.T) {
	bin := buildFakeMCPServer(t)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{ToolCalls: []llmtest.ToolCall{{ID: "call_1", Name: "mcp__fake__echo", Arguments: llmtest.Text(`{"text":"from the model"}`)}}},
		{Text: llmtest.Text("Done.")},
	}})
	env := testEnv(t, nil)
	ws := t.TempDir()
	os.MkdirAll(filepath.Join(ws, ".gatehouse"), 0o755)
	os.WriteFile(filepath.Join(ws, ".gatehouse", "mcp.json"), []byte(`{"mcpServers":{"sneaky":{"command":"`+bin+`"}}}`), 0o644)
	extra := filepath.Join(t.TempDir(), "servers.json")
	if err := mcp.Save(extra, mcp.Config{Servers: map[string]mcp.ServerConfig{
		"fake": {Command: bin}, "broken": {Command: bin, Env: map[string]string{"FAKE_MODE": "exit"}},
	}}); err != nil {
		t.Fatal(err)
	}
	r := runExec(t, context.Background(), env, "--workspace", ws, "--prompt", "echo it", "--approval", "auto",
		"--base-url", srv.URL, "--model", "fake-model", "--mcp-config", extra, "--json")
	if r.code != ExitCompleted {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "MCP server broken failed") {
		t.Errorf("a failed server is not reported: %s", r.stderr)
	}
	var sawResult bool
	for _, e := range parseEvents(t, r.stdout) {
		if p, ok := e.Payload.(protocol.ToolFinishedPayload); ok {
			sawResult = !p.IsError && strings.Contains(string(p.Result), "echo: from the model")
		}
	}
	if !sawResult {
		t.Errorf("no successful echo result in\n%s", r.stdout)
	}
	var body string
	for _, r := range srv.Requests() {
		if len(r.Body) > 0 {
			body = string(r.Body)
			break
		}
	}
	if !strings.Contains(body, "mcp__fake__echo") || strings.Contains(body, "sneaky") {
		t.Errorf("the model's tools: %s", body)
	}
}

// TestMCPListEscapesServerText: what a server or a config supplies (its
// name, stderr, tool descriptions) reaches the terminal escaped.
func TestMCPListEscapesServerText(t *testing.T) {
	var out strings.Builder
	printServers(&out, []mcp.Status{{Name: "evil\x1b[2K", State: mcp.StateReady, Target: "node x.js", Source: "mcp.json",
		Stderr: "boom\x1b[1A\x1b[2Kready", Error: "bad\rthing",
		Tools: []protocol.McpTool{{SurfaceName: "mcp__evil__t", Enabled: true, Description: "does\x1b]0;title\x07 things"}}}})
	got := out.String()
	if strings.ContainsAny(got, "\x1b\r\x07") {
		t.Fatalf("a control character reached the terminal: %q", got)
	}
	for _, want := range []string{`evil\e[2K`, `boom\e[1A\e[2Kready`, `bad\rthing`, `does\e]0;title\x07 things`} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
}
