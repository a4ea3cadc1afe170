package gui

import (
	"gatehouse/internal/protocol"

	"encoding/json"
	"slices"
	"testing"

	"gatehouse/internal/llm/llmtest"
)

// chatMessages is what the i-th Chat Completions request sent, each as
// "role: content".
func chatMessages(t *testing.T, srv *llmtest.Server, i int) []string {
	t.Helper()
	b, ok := srv.ChatRequest(i)
	if !ok {
		t.Fatalf("no request %d", i)
	}
	var body struct {
		Messages []struct {
			Role    string `json:"role"`
			Content any    `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(b, &body); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range body.Messages {
		if m.Role == "system" {
			continue
		}
		s, _ := m.Content.(string)
		out = append(out, m.Role+": "+s)
	}
	return out
}

// Retry sends the last message again in place of its turn: the model is
// not sent the retried turn's prompt and answer, neither by the retry nor
// by the turn after it, nor after the session is resumed from its log.
func TestRetryReplacesTheTurnInTheModelsHistory(t *testing.T) {
	app, _, srv := newTestAppServer(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Text("Setup done.")}, {Text: llmtest.Text("A wrong answer.")},
		{Text: llmtest.Text("A right answer.")}, {Text: llmtest.Text("Next.")}, {Text: llmtest.Text("Resumed.")}}})
	for _, msg := range []string{"set up", "answer me"} {
		if _, err := app.Submit(protocol.Submission{Text: msg}); err != nil {
			t.Fatal(err)
		}
		waitIdle(t, app)
	}
	if _, err := app.Retry(); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	want := []string{"user: set up", "assistant: Setup done.", "user: answer me"}
	if got := chatMessages(t, srv, 2); !slices.Equal(got, want) {
		t.Fatalf("the retry sent %q, want %q", got, want)
	}
	if _, err := app.Submit(protocol.Submission{Text: "go on"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	want = append(want, "assistant: A right answer.", "user: go on")
	if got := chatMessages(t, srv, 3); !slices.Equal(got, want) {
		t.Fatalf("the turn after the retry sent %q, want %q", got, want)
	}
	if v := srv.Violations(); len(v) != 0 {
		t.Fatalf("violations %v", v)
	}

	id := app.Snapshot().SessionID
	app.NewSession()
	if _, err := app.ResumeSession(id); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Submit(protocol.Submission{Text: "after resume"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	want = append(want, "assistant: Next.", "user: after resume")
	if got := chatMessages(t, srv, 4); !slices.Equal(got, want) {
		t.Fatalf("the resumed session sent %q, want %q", got, want)
	}
}
