package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/mcp"
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
