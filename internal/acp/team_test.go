package acp

import (
	"context"
	"strings"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/team/teamtest"
)

// A session opened with _meta {"gatehouse/experimental": ["teams"]} gives
// the lead the team tools; its teammate shows as the lead's tool calls
// titled with its name, its answer as an update of the spawn call, and its
// message to the lead as a line of the lead's thought, not as the lead's
// text.
func TestTeammateShowsUnderTheSpawnCall(t *testing.T) {
	srv := llmtest.Start(t, teamtest.ScoutReports())
	e := startEditor(t, testEnv(t), srv, "--approval", "safe")
	e.initialize()
	ns, err := e.conn.NewSession(context.Background(), sdk.NewSessionRequest{Cwd: workspaceWith(t, map[string]string{"a.txt": "x"}),
		McpServers: []sdk.McpServer{}, Meta: map[string]any{MetaExperimental: []any{"teams"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.prompt(context.Background(), ns.SessionId, "make a team"); err != nil {
		t.Fatal(err)
	}
	var thought, spawnUpdate, titled bool
	deadline := time.Now().Add(30 * time.Second)
	for !(thought && spawnUpdate && titled) && time.Now().Before(deadline) {
		us, _ := e.seen()
		for _, u := range us {
			if c := u.Update.AgentThoughtChunk; c != nil && c.Content.Text != nil && strings.Contains(c.Content.Text.Text, "[team] scout → lead: found a.txt") {
				thought = true
			}
			if c := u.Update.ToolCallUpdate; c != nil && c.ToolCallId == "s1" {
				for _, cc := range c.Content {
					if cc.Content != nil && cc.Content.Content.Text != nil && strings.HasPrefix(cc.Content.Content.Text.Text, "scout: ") {
						spawnUpdate = true
					}
				}
			}
			if c := u.Update.ToolCall; c != nil && c.ToolCallId == "m1" && strings.HasPrefix(c.Title, "scout › ") {
				titled = true
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	us, _ := e.seen()
	if !thought || !spawnUpdate || !titled {
		t.Fatalf("thought %v, spawn call update %v, titled call %v", thought, spawnUpdate, titled)
	}
	if text := agentText(us); strings.Contains(text, "told the lead") {
		t.Fatalf("the teammate's text reached the lead's message: %q", text)
	}
}
