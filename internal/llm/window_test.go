package llm_test

import (
	"context"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
)

// The window comes from the server's /models metadata in each shape servers
// use, except Ollama's (the trained length, not the served one), else from
// the table of known families, else nowhere (the caller's setting).
func TestContextWindowFromEachSource(t *testing.T) {
	clearEnv(t)
	meta := map[string]map[string]any{
		"vllm-model":  {"max_model_len": 32768, "owned_by": "vllm"},
		"openrouter":  {"context_length": 200000, "top_provider": map[string]any{"context_length": 100000}},
		"or-top-only": {"top_provider": map[string]any{"context_length": 65536}},
		"lmstudio":    {"loaded_context_length": 8192, "max_context_length": 131072},
		"qwen3:8b":    {"owned_by": "library", "context_length": 40960},
		"llama3.1:8b": {"owned_by": "library", "context_length": 999},
	}
	models := []string{"vllm-model", "openrouter", "or-top-only", "lmstudio", "qwen3:8b", "llama3.1:8b", "gpt-4o-mini", "openai/gpt-4.1", "mystery"}
	srv := llmtest.Start(t, llmtest.Script{Models: models, ModelMeta: meta})
	want := map[string]llm.Window{
		"vllm-model":     {Tokens: 32768, Source: llm.WindowServer},
		"openrouter":     {Tokens: 200000, Source: llm.WindowServer},
		"or-top-only":    {Tokens: 65536, Source: llm.WindowServer},
		"lmstudio":       {Tokens: 8192, Source: llm.WindowServer},
		"qwen3:8b":       {},
		"llama3.1:8b":    {Tokens: 131072, Source: llm.WindowKnownModel},
		"gpt-4o-mini":    {Tokens: 128000, Source: llm.WindowKnownModel},
		"openai/gpt-4.1": {Tokens: 1047576, Source: llm.WindowKnownModel},
		"mystery":        {},
	}
	for _, m := range models {
		c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: m})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.ContextWindow(context.Background()); got != want[m] {
			t.Errorf("%s: window %+v, want %+v", m, got, want[m])
		}
		before := len(srv.Requests())
		c.ContextWindow(context.Background())
		if len(srv.Requests()) != before {
			t.Errorf("%s: asked the server again; the answer is kept per model", m)
		}
	}
}

// A server without /models leaves the table to answer.
func TestContextWindowWithoutAListing(t *testing.T) {
	clearEnv(t)
	srv := llmtest.Start(t, llmtest.Script{APIKey: "right"})
	c, _ := llm.New(llm.Config{BaseURL: srv.URL, APIKey: "wrong", Model: "claude-sonnet-4"})
	if got := c.ContextWindow(context.Background()); got != (llm.Window{Tokens: 200000, Source: llm.WindowKnownModel}) {
		t.Fatalf("window %+v", got)
	}
}
