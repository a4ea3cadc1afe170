package llm_test

import (
	"context"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
)

func TestConnection(t *testing.T) {
	clearEnv(t)
	cases := []struct {
		name   string
		script string // empty: a closed port
		key    string
		model  string
		want   llm.ConnectionStatus
	}{
		{"listed model", `{"apiKey": "k", "models": ["m1", "m2"], "responses": []}`, "k", "m2", llm.Reachable},
		{"unlisted but answers", `{"responses": [{"text": "p"}]}`, "", "m9", llm.Reachable},
		{"key rejected", `{"apiKey": "k", "models": ["m1"], "responses": []}`, "wrong", "m1", llm.KeyRejected},
		{"model unknown", `{"models": ["m1"], "responses": []}`, "k", "m9", llm.ModelUnknown},
		{"unreachable", "", "k", "m1", llm.Unreachable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			url := closedPort(t)
			if c.script != "" {
				url = llmtest.Start(t, script(t, c.script)).URL
			}
			got := llm.TestConnection(context.Background(), llm.APIChat, url, c.key, c.model)
			if got.Status != c.want || got.Message == "" {
				t.Fatalf("got %+v, want %s", got, c.want)
			}
			if (got.Status == llm.Reachable) != (got.Kind == "") {
				t.Fatalf("kind %q with status %s", got.Kind, got.Status)
			}
		})
	}
}

func TestConnectionWords(t *testing.T) {
	clearEnv(t)
	srv := llmtest.Start(t, script(t, `{"apiKey": "k", "responses": []}`))
	got := llm.TestConnection(context.Background(), llm.APIChat, srv.URL, "wrong", "m")
	if got.Message != "The model server refused the key." {
		t.Fatalf("message %q", got.Message)
	}
	got = llm.TestConnection(context.Background(), llm.APIChat, "not a url", "k", "m")
	if got.Status != llm.Unreachable || got.Kind != llm.KindBadConfig {
		t.Fatalf("bad URL: %+v", got)
	}
}
