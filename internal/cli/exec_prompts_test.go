package cli

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/mcp"
	"gatehouse/internal/mcp/mcptest"
)

// exec's --prompt "/everything:args-prompt city=…" sends the prompt's
// expansion; a required argument left out is a usage error.
func TestExecRunsAServerPrompt(t *testing.T) {
	js := mcptest.Server(t, "server-everything")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("sunny")}}})
	env := testEnv(t, nil)
	extra := filepath.Join(t.TempDir(), "servers.json")
	if err := mcp.Save(extra, mcp.Config{Servers: map[string]mcp.ServerConfig{"everything": {Command: "node", Args: []string{js, "stdio"}}}}); err != nil {
		t.Fatal(err)
	}
	run := func(prompt string) execResult {
		return runExec(t, context.Background(), env, "--workspace", t.TempDir(), "--prompt", prompt, "--approval", "auto",
			"--base-url", srv.URL, "--model", "fake-model", "--mcp-config", extra)
	}
	if r := run("/everything:args-prompt state=Texas"); r.code != ExitUsage || !strings.Contains(r.stderr, "needs city") {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if r := run(`/everything:args-prompt city="San Antonio" state=Texas`); r.code != ExitCompleted {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	body := string(srv.ModelRequests()[0].Body)
	if !strings.Contains(body, "What's weather in San Antonio, Texas?") {
		t.Errorf("the prompt's expansion was not sent: %.2000s", body)
	}
}
