package gui

import (
	"context"
	"time"

	"gatehouse/internal/llm"
)

// DetectLocalModels looks for model servers on this machine (Ollama on
// 11434, LM Studio on 1234) for the first-run screen to offer. It answers
// within about a second; an empty list means none was found.
func (a *App) DetectLocalModels() []llm.LocalServer {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	return llm.DetectLocal(ctx)
}
