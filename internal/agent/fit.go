package agent

import (
	"encoding/json"

	"gatehouse/internal/llm"
)

// trimmedOutput replaces a tool output removed to fit the context window.
const trimmedOutput = `{"trimmed":true,"note":"this old tool output was removed to fit the model's context window; run the tool again if you need it"}`

// fit returns the messages of the next request: the system prompt and the
// history, with the oldest tool outputs trimmed (in the history itself, so
// later requests stay consistent) while the estimate exceeds 90% of the
// window. It returns how many outputs it trimmed and the estimated size of
// the request in tokens.
func (a *Agent) fit(specs []llm.ToolSpec) ([]llm.Message, int, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	budget := a.cfg.ContextWindow * 9 / 10
	size := estimate(a.cfg.System) + specTokens(specs)
	for _, m := range a.history {
		size += messageTokens(m)
	}
	trimmed := 0
	// Never trim the results of the latest assistant message: the model
	// is about to read them.
	last := len(a.history)
	for i := len(a.history) - 1; i >= 0; i-- {
		if a.history[i].Role == llm.RoleAssistant {
			last = i
			break
		}
	}
	for i := 0; i < last && size > budget; i++ {
		m := &a.history[i]
		if m.Role != llm.RoleTool || m.Text == trimmedOutput {
			continue
		}
		size -= estimate(m.Text) - estimate(trimmedOutput)
		m.Text = trimmedOutput
		trimmed++
	}
	msgs := make([]llm.Message, 0, len(a.history)+1)
	if a.cfg.System != "" {
		msgs = append(msgs, llm.System(a.cfg.System))
	}
	return append(msgs, a.history...), trimmed, size
}

// estimate is a rough token count: about four bytes a token.
func estimate(s string) int { return len(s)/4 + 1 }

// messageTokens leaves out m.Reasoning: it is opaque (encrypted on the
// Responses API), so its size in bytes says little about its tokens, and
// a server that sends it also reports the prompt's real size.
func messageTokens(m llm.Message) int {
	n := estimate(m.Text) + 4
	for _, c := range m.ToolCalls {
		n += estimate(c.Name) + estimate(c.Arguments)
	}
	return n
}

func specTokens(specs []llm.ToolSpec) int {
	b, _ := json.Marshal(specs)
	return estimate(string(b))
}
