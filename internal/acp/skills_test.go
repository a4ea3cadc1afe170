package acp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
)

// The editor is told the user's skills as available commands after
// session/new, and a prompt "/pdf fill it" is sent with the skill loaded.
func TestSkillsAreAvailableCommands(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir := filepath.Join(home, ".agents", "skills", "pdf")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: pdf\ndescription: Fill PDF forms\n---\nPDF-STEPS\n"), 0o644)
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{{Text: llmtest.Text("ok")}}})
	e := startEditor(t, testEnv(t), srv)
	e.initialize()
	r := e.newSession(t.TempDir())
	deadline := time.Now().Add(10 * time.Second)
	found := false
	for !found && time.Now().Before(deadline) {
		ups, _ := e.seen()
		for _, u := range ups {
			if c := u.Update.AvailableCommandsUpdate; c != nil && len(c.AvailableCommands) == 1 &&
				c.AvailableCommands[0].Name == "pdf" && c.AvailableCommands[0].Description == "Fill PDF forms" {
				found = true
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	if !found {
		t.Fatalf("no available_commands_update with the skill")
	}
	if _, err := e.prompt(context.Background(), r.SessionId, "/pdf fill it"); err != nil {
		t.Fatal(err)
	}
	body := string(srv.ModelRequests()[0].Body)
	if !strings.Contains(body, "PDF-STEPS") || !strings.Contains(body, "fill it") {
		t.Errorf("the prompt was not sent with the skill: %.2000s", body)
	}
}
