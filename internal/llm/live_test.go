package llm_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
)

// A change of the configuration applies to the next request; the key is
// sent as configured.
func TestLiveFollowsTheConfiguration(t *testing.T) {
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Text("one")}, {Text: llmtest.Text("two")}, {Text: llmtest.Text("three")},
	}})
	var mu sync.Mutex
	cfg := llm.Config{BaseURL: srv.URL, Model: "first", APIKey: "sk-1"}
	live := llm.NewLive(func() llm.Config { mu.Lock(); defer mu.Unlock(); return cfg })
	ask := func() {
		t.Helper()
		if _, err := live.Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("hi")}}, nil); err != nil {
			t.Fatal(err)
		}
	}
	ask()
	mu.Lock()
	cfg.Model = "second"
	mu.Unlock()
	ask()
	mu.Lock()
	cfg.APIKey = ""
	mu.Unlock()
	ask()
	var models []string
	var authorized []bool
	for _, r := range srv.Requests() {
		var body struct{ Model string }
		json.Unmarshal(r.Body, &body)
		models = append(models, body.Model)
		authorized = append(authorized, r.Authorized)
	}
	if len(models) != 3 || models[0] != "first" || models[1] != "second" || models[2] != "second" {
		t.Errorf("models asked for: %v", models)
	}
	if !authorized[0] || !authorized[1] || authorized[2] {
		t.Errorf("keys sent: %v (the cleared key was still sent?)", authorized)
	}
}

// A configuration the client refuses is the request's error.
func TestLiveReportsABadConfiguration(t *testing.T) {
	live := llm.NewLive(func() llm.Config { return llm.Config{BaseURL: "ftp://nowhere"} })
	if _, err := live.Stream(context.Background(), llm.Request{Messages: []llm.Message{llm.User("hi")}}, nil); err == nil {
		t.Fatal("no error for a bad base URL")
	}
}
