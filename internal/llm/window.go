package llm

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/openai/openai-go/v3/option"
)

// WindowSource says where a context window size came from. Extend, don't
// rename: turn.stopped's context and the header gauge carry these strings.
type WindowSource string

const (
	// WindowServer: the model server's /models metadata (vLLM's
	// max_model_len, OpenRouter's and LM Studio's context_length, ...).
	WindowServer WindowSource = "server"
	// WindowKnownModel: Gatehouse's table of well-known model families.
	WindowKnownModel WindowSource = "known_model"
	// WindowSetting: the context window in the user's settings.
	WindowSetting WindowSource = "setting"
	// WindowDefault: nothing said; DefaultWindow is assumed.
	WindowDefault WindowSource = "default"
)

// DefaultWindow is the context window assumed when nothing says better.
const DefaultWindow = 128_000

// Window is a model's context window in tokens and where that came from.
// Tokens is 0 when neither the server nor the table knows it.
type Window struct {
	Tokens int          `json:"tokens"`
	Source WindowSource `json:"source"`
}

// windowLookupTimeout bounds the /models call of ContextWindow.
const windowLookupTimeout = 5 * time.Second

// ContextWindow returns the window of the client's model: from the server's
// /models metadata when it reports one it can be trusted for, else from the
// table of well-known families (KnownWindow), else Tokens 0 (the caller
// falls back to its setting). The answer is looked up once per model and
// kept; a failed lookup is not an error, only no answer from the server.
func (c *Client) ContextWindow(ctx context.Context) Window {
	model := c.model
	if w, ok := c.windows.Load(model); ok {
		return w.(Window)
	}
	ctx, cancel := context.WithTimeout(ctx, windowLookupTimeout)
	defer cancel()
	w := Window{}
	var list struct {
		Data []json.RawMessage `json:"data"`
	}
	// No retries: a server that does not answer leaves the window to the
	// table and the setting, and the turn should not wait on it.
	if err := c.oa.Get(ctx, "models", nil, &list, option.WithMaxRetries(0)); err == nil {
		for _, raw := range list.Data {
			if n, ok := serverWindow(raw, model); ok {
				w = Window{Tokens: n, Source: WindowServer}
				break
			}
		}
	} else if ctx.Err() != nil && ctx.Err() != context.DeadlineExceeded {
		return KnownWindowOf(model) // cancelled: ask again next time
	}
	if w.Tokens == 0 {
		w = KnownWindowOf(model)
	}
	c.windows.Store(model, w)
	return w
}

// serverWindow reads the context window of model from its /models entry.
// Fields, the served window first: LM Studio's loaded_context_length,
// vLLM's max_model_len, context_length (OpenRouter, LM Studio, others),
// context_window, max_context_length, OpenRouter's
// top_provider.context_length. Ollama lists its models as owned_by
// "library" (or "ollama"); its context_length, where a version reports it,
// is the length the model was trained for, not the num_ctx it serves, so
// nothing an Ollama entry says is taken.
func serverWindow(raw json.RawMessage, model string) (int, bool) {
	var m struct {
		ID                  string `json:"id"`
		OwnedBy             string `json:"owned_by"`
		LoadedContextLength int    `json:"loaded_context_length"`
		MaxModelLen         int    `json:"max_model_len"`
		ContextLength       int    `json:"context_length"`
		ContextWindow       int    `json:"context_window"`
		MaxContextLength    int    `json:"max_context_length"`
		TopProvider         struct {
			ContextLength int `json:"context_length"`
		} `json:"top_provider"`
	}
	if json.Unmarshal(raw, &m) != nil || m.ID != model {
		return 0, false
	}
	if o := strings.ToLower(m.OwnedBy); o == "library" || o == "ollama" {
		return 0, false
	}
	for _, n := range []int{m.LoadedContextLength, m.MaxModelLen, m.ContextLength, m.ContextWindow, m.MaxContextLength, m.TopProvider.ContextLength} {
		if n > 0 {
			return n, true
		}
	}
	return 0, false
}

// knownWindows are the windows of well-known model families, by id prefix
// (after any "provider/" part), the more specific first.
var knownWindows = []struct {
	prefix string
	tokens int
}{
	{"gpt-4.1", 1_047_576},
	{"gpt-5", 400_000},
	{"gpt-4o", 128_000},
	{"gpt-4-turbo", 128_000},
	{"gpt-3.5-turbo", 16_385},
	{"o1", 200_000},
	{"o3", 200_000},
	{"o4-mini", 200_000},
	{"claude", 200_000},
	{"gemini-1.5", 1_048_576},
	{"gemini-2", 1_048_576},
	{"llama-3.1", 131_072},
	{"llama3.1", 131_072},
	{"llama-3.3", 131_072},
	{"llama3.3", 131_072},
	{"qwen2.5-coder", 32_768},
}

// KnownWindowOf looks model up in the table of well-known families; Tokens
// is 0 when it is not there.
func KnownWindowOf(model string) Window {
	id := strings.ToLower(model)
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	for _, k := range knownWindows {
		if strings.HasPrefix(id, k.prefix) {
			return Window{Tokens: k.tokens, Source: WindowKnownModel}
		}
	}
	return Window{}
}
