package agent

import (
	"context"

	"gatehouse/internal/llm"
)

// Windowed is a Model that knows its context window (*llm.Client: from the
// server's /models metadata or a table of known models). ContextWindow may
// make a request; it returns Tokens 0 when it does not know, and is asked
// at the start of every turn, so it should keep its answer.
type Windowed interface {
	ContextWindow(ctx context.Context) llm.Window
}

// resolveWindow asks the model for its window, else takes the setting
// (Config.ContextWindow), else llm.DefaultWindow, and keeps the answer for
// the turn.
func (a *Agent) resolveWindow(ctx context.Context) {
	w := llm.Window{}
	if m, ok := a.cfg.Model.(Windowed); ok {
		w = m.ContextWindow(ctx)
	}
	switch {
	case w.Tokens > 0:
	case a.cfg.ContextWindow > 0:
		w = llm.Window{Tokens: a.cfg.ContextWindow, Source: llm.WindowSetting}
	default:
		w = llm.Window{Tokens: llm.DefaultWindow, Source: llm.WindowDefault}
	}
	a.mu.Lock()
	switch {
	case a.learned.Tokens == 0:
	case a.learnedOver == w && a.learned.Tokens < w.Tokens:
		w = a.learned // a refusal said how long the window really is
	default:
		a.learned = llm.Window{} // learned for another model or setting
	}
	a.window = w
	a.mu.Unlock()
}

// windowLocked is the window in use: resolved at the turn's start, or the
// setting before any turn.
func (a *Agent) windowLocked() llm.Window {
	if a.window.Tokens > 0 {
		return a.window
	}
	if a.cfg.ContextWindow > 0 {
		return llm.Window{Tokens: a.cfg.ContextWindow, Source: llm.WindowSetting}
	}
	return llm.Window{Tokens: llm.DefaultWindow, Source: llm.WindowDefault}
}
