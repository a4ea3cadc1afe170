package acp

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/mcp/mcptest"
)

// The editor's server-everything offers its prompts as available commands
// (with the arguments in the hint); "/everything:args-prompt city=Paris"
// sends the prompt's expansion; a required argument left out is an error.
func TestServerPromptsAreAvailableCommands(t *testing.T) {
	js := mcptest.Server(t, "server-everything")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("sunny")}}})
	e := startEditor(t, testEnv(t), srv, "--approval", "auto")
	e.initialize()
	s, err := e.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: workspaceWith(t, nil),
		McpServers: []sdk.McpServer{{Stdio: &sdk.McpServerStdio{Name: "everything", Command: "node", Args: []string{js, "stdio"}, Env: []sdk.EnvVariable{}}}}})
	if err != nil {
		t.Fatalf("session/new: %v", err)
	}
	var cmd *sdk.AvailableCommand
	for deadline := time.Now().Add(20 * time.Second); cmd == nil && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		ups, _ := e.seen()
		for _, u := range ups {
			if c := u.Update.AvailableCommandsUpdate; c != nil {
				if i := slices.IndexFunc(c.AvailableCommands, func(a sdk.AvailableCommand) bool { return a.Name == "everything:args-prompt" }); i >= 0 {
					cmd = &c.AvailableCommands[i]
				}
			}
		}
	}
	if cmd == nil {
		t.Fatal("no available_commands_update with the server's prompt")
	}
	if cmd.Input == nil || cmd.Input.Unstructured == nil || cmd.Input.Unstructured.Hint != "city=… (required) state=…" {
		t.Fatalf("command %+v", cmd)
	}
	if _, err := e.prompt(context.Background(), s.SessionId, "/everything:args-prompt state=Texas"); err == nil || !strings.Contains(err.Error(), "needs city") {
		t.Fatalf("without its required argument: %v", err)
	}
	if _, err := e.prompt(context.Background(), s.SessionId, `/everything:args-prompt city=Paris`); err != nil {
		t.Fatal(err)
	}
	body := string(srv.ModelRequests()[0].Body)
	if !strings.Contains(body, "What's weather in Paris?") || strings.Contains(body, "args-prompt") {
		t.Errorf("the prompt's expansion was not sent: %.2000s", body)
	}
}
