package gui

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/mcp"
	"gatehouse/internal/mcp/mcptest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/settings"
	"gatehouse/internal/slash"
)

const featuresURI = "demo://resource/static/document/features.md"

// TestResourceMentionAndPromptReachTheModel: the user's server-everything
// offers its documents in the @ picker, labelled with the server, and its
// prompts as /everything:<prompt> with their arguments. A mentioned
// resource's text is in the model's request; a prompt's expansion is the
// user's message; a required argument left out sends nothing.
func TestResourceMentionAndPromptReachTheModel(t *testing.T) {
	app, srv := everythingApp(t, llmtest.Script{When: []llmtest.Rule{
		{LastContains: "summarise it", Response: llmtest.Response{Text: llmtest.Text("ok")}},
		{LastContains: "weather", Response: llmtest.Response{Text: llmtest.Text("sunny")}},
	}})
	app.Ready()
	mention := mcp.ResourceMention("everything", featuresURI)
	waitFor(t, "the server's resource in the @ picker", func() bool {
		return slices.ContainsFunc(app.MentionCandidates("features"), func(c MentionCandidate) bool {
			return c.Mention == mention && c.Server == "everything" && c.Label == "features.md — everything" && c.Detail == featuresURI
		})
	})
	var prompt slash.Command
	waitFor(t, "the server's prompt in the / menu", func() bool {
		i := slices.IndexFunc(app.Commands(), func(c slash.Command) bool { return c.Name == "everything:args-prompt" })
		if i >= 0 {
			prompt = app.Commands()[i]
		}
		return i >= 0
	})
	if prompt.Origin != slash.Prompt || prompt.Description == "" || len(prompt.Arguments) != 2 || !prompt.Arguments[0].Required {
		t.Fatalf("entry %+v", prompt)
	}
	wait := func() {
		t.Helper()
		s := app.currentSession()
		done := make(chan struct{})
		go func() { s.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatal("the turn did not stop")
		}
	}
	if _, err := app.Submit(protocol.Submission{Text: "summarise it", Mentions: []string{mention}}); err != nil {
		t.Fatal(err)
	}
	wait()
	body, _ := srv.ChatRequest(0)
	if !strings.Contains(string(body), "summarise it") || !strings.Contains(string(body), "# Everything Server - Features") ||
		!strings.Contains(string(body), `uri=\"`+featuresURI) {
		t.Fatalf("the resource did not reach the model: %.800s", body)
	}
	if _, err := app.Submit(protocol.Submission{Text: "/everything:args-prompt state=Texas",
		Command: &protocol.SlashCall{Name: "everything:args-prompt", Args: "state=Texas"}}); err == nil || !strings.Contains(err.Error(), "needs city") {
		t.Fatalf("a prompt without its required argument: %v", err)
	}
	if _, err := app.Submit(protocol.Submission{Text: `/everything:args-prompt city="San Antonio" state=Texas`,
		Command: &protocol.SlashCall{Name: "everything:args-prompt", Args: `city="San Antonio" state=Texas`}}); err != nil {
		t.Fatal(err)
	}
	wait()
	body, _ = srv.ChatRequest(len(srv.ModelRequests()) - 1)
	if !strings.Contains(string(body), "What's weather in San Antonio, Texas?") {
		t.Fatalf("the prompt's expansion did not reach the model: %.800s", body)
	}
	if _, err := app.Submit(protocol.Submission{Text: "x", Mentions: []string{mcp.ResourceMention("everything", "demo://nope")}}); err == nil ||
		!strings.Contains(err.Error(), "@mcp:everything:demo://nope") {
		t.Fatalf("an unreadable resource: %v", err)
	}
}

// everythingApp is a window in auto mode on a new folder, its model the
// fake server playing script, with the user's server-everything (not
// started: Ready starts it).
func everythingApp(t *testing.T, script llmtest.Script) (*App, *llmtest.Server) {
	t.Helper()
	js := mcptest.Server(t, "server-everything")
	srv := llmtest.Start(t, script)
	cfg := filepath.Join(t.TempDir(), "config")
	if err := mcp.Save(mcp.UserConfigPath(cfg), mcp.Config{Servers: map[string]mcp.ServerConfig{
		"everything": {Command: "node", Args: []string{js, "stdio"}}}}); err != nil {
		t.Fatal(err)
	}
	app := NewApp(time.Now(), slog.New(slog.NewTextHandler(io.Discard, nil)), settings.NewStore(cfg), settings.Flags{}, filepath.Join(t.TempDir(), "data"))
	t.Cleanup(func() { app.shutdown(context.Background()) })
	if _, err := app.SaveSettings(SettingsInput{BaseURL: srv.URL, Model: "fake-model", APIKey: "sk-test"}); err != nil {
		t.Fatal(err)
	}
	if err := app.useMode("auto"); err != nil {
		t.Fatal(err)
	}
	if err := app.setWorkspace(t.TempDir()); err != nil {
		t.Fatal(err)
	}
	return app, srv
}
