// Package llmtest is a scripted, OpenAI-compatible fake model server for
// tests: it streams a script as Chat Completions SSE (POST /chat/completions)
// or as Responses API SSE (POST /responses), records every request, and
// checks on every request that each tool call the model made got exactly
// one result (a tool message, or a function_call_output item) and, on
// /responses, that reasoning items sent back are the ones it sent, each
// before the output it led to.
//
// A script is JSON (see Script), so a file can drive the fakellm command the
// end-to-end tests run. Each model request, on either endpoint, takes the
// next scripted response; a request beyond the script gets a 500 and counts
// as a violation.
//
// Example:
//
//	{
//	  "models": ["fake-model"],
//	  "apiKey": "sk-test",
//	  "responses": [
//	    {"reasoning": [{"encrypted": "opaque-1"}], "toolCalls": [{"id": "call_1", "name": "read_file", "arguments": ["{\"path\":", "\"a.txt\"}"]}]},
//	    {"text": "Hello **there**", "usage": {"promptTokens": 12, "completionTokens": 3}},
//	    {"text": ["Hel", "lo"], "hang": true},
//	    {"error": {"status": 429, "code": "rate_limit_exceeded", "message": "slow down"}}
//	  ]
//	}
package llmtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Script drives the fake server.
type Script struct {
	// Models are listed by GET /v1/models. When set, a model request for any
	// other model gets 404 model_not_found (and takes no response).
	Models []string `json:"models,omitempty"`
	// APIKey, when set, is required as the bearer token on every request;
	// others get 401 invalid_api_key.
	APIKey string `json:"apiKey,omitempty"`
	// Responses answer model requests, one each, in order.
	Responses []Response `json:"responses"`
	// ByModel answers the requests for a model named here with that
	// model's own responses, one each, in order, and none of Responses
	// (nor When's):
	// agents that run at once (a team's members, each agent definition
	// naming its own model) each follow their own script whatever order
	// their requests come in. A request beyond a model's list is a
	// violation, as beyond Responses.
	ByModel map[string][]Response `json:"byModel,omitempty"`
	// RefuseInclude answers a /responses request that has an include
	// parameter with a 400 naming it, as some servers other than OpenAI's
	// do. The refused request takes no scripted response.
	RefuseInclude bool `json:"refuseInclude,omitempty"`
	// ContextWindow, when set, refuses a model request whose prompt the
	// server counts (see countTokens) at more tokens than this, with HTTP
	// 400 context_length_exceeded. The refused request takes no scripted
	// response.
	ContextWindow int64 `json:"contextWindow,omitempty"`
	// ModelMeta adds fields to a model's entry in GET /models, by model id:
	// {"fake": {"max_model_len": 32768}} as vLLM reports its window,
	// {"context_length": ...} as OpenRouter and LM Studio do,
	// {"owned_by": "library", ...} as Ollama lists its models.
	ModelMeta map[string]map[string]any `json:"modelMeta,omitempty"`
	// When answers requests out of turn: a model request whose last
	// message contains a rule's LastContains gets the rule's Response
	// (the first rule that matches), as often as it comes, and takes none
	// of Responses. For requests whose place in the sequence a test cannot
	// know, such as a compaction's summary request.
	When []Rule `json:"when,omitempty"`
}

// Rule answers every model request whose last message contains
// LastContains with Response.
type Rule struct {
	LastContains string   `json:"lastContains"`
	Response     Response `json:"response"`
}

// Response is the answer to one model request: an HTTP error, or a stream
// of text chunks, then tool-call chunks, then a finish chunk, a usage chunk
// (when the request asked for usage) and [DONE]. On /responses the same
// pieces are output_text and function_call_arguments deltas, and the end is
// response.completed with the usage (see streamResponse).
type Response struct {
	// Reasoning is streamed on /responses before everything else, one
	// "reasoning" output item each; Chat Completions ignores it.
	Reasoning []Reasoning `json:"reasoning,omitempty"`
	// Text is streamed as content deltas: an array is sent one element per
	// chunk; a string is split into one chunk per word.
	Text Fragments `json:"text,omitempty"`
	// ToolCalls are streamed after the text, each split into a chunk with
	// its id and name and one chunk per argument fragment.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// Interleave alternates the argument chunks of parallel tool calls
	// instead of sending each call whole before the next.
	Interleave bool `json:"interleave,omitempty"`
	// Usage of the usage chunk; default: the server's own count of the
	// prompt (see countTokens) and one completion token per chunk.
	Usage *Usage `json:"usage,omitempty"`
	// FinishReason defaults to "tool_calls" with tool calls, else "stop".
	// On /responses "length" and "content_filter" end the stream with
	// response.incomplete.
	FinishReason string `json:"finishReason,omitempty"`
	// DelayMs waits this long before each chunk.
	DelayMs int `json:"delayMs,omitempty"`
	// Hang stops after the text and tool-call chunks and holds the
	// connection open until the client goes away (for cancel tests).
	Hang bool `json:"hang,omitempty"`
	// Error answers with this HTTP error instead of a stream.
	Error *APIError `json:"error,omitempty"`
	// StreamError ends the stream after the text and tool-call chunks with
	// an error event, as servers do when a stream fails midway
	// (response.failed on /responses).
	StreamError *APIError `json:"streamError,omitempty"`

	// promptTokens is the server's count of the request answered.
	promptTokens int64
}

// Reasoning is one reasoning item the fake model outputs. Its id is
// rs_llmtest_<response>_<index>. As OpenAI does, the server sends
// Encrypted as the item's encrypted_content only when the request's include
// asked for "reasoning.encrypted_content"; the Summary is always sent.
//
// A later request that sends the item back must send it with the same
// encrypted_content and follow it with an output item (a message or a
// function call), or the server records a violation.
type Reasoning struct {
	// Encrypted is opaque to the client.
	Encrypted string `json:"encrypted"`
	Summary   string `json:"summary,omitempty"`
}

// ToolCall is a tool call the fake model makes.
type ToolCall struct {
	ID        string    `json:"id"`
	Name      string    `json:"name"`
	Arguments Fragments `json:"arguments"`
}

// Usage is the token count reported in the usage chunk.
type Usage struct {
	PromptTokens     int64 `json:"promptTokens"`
	CompletionTokens int64 `json:"completionTokens"`
	CachedTokens     int64 `json:"cachedTokens,omitempty"`
}

// APIError is an OpenAI-style error.
type APIError struct {
	// Status is the HTTP status (ignored for StreamError).
	Status  int    `json:"status"`
	Code    string `json:"code,omitempty"`
	Type    string `json:"type,omitempty"`
	Param   string `json:"param,omitempty"`
	Message string `json:"message"`
}

// Fragments is text sent in pieces: a JSON array of strings (one piece
// each) or a single string (for Text, split at word ends; for arguments,
// sent whole).
type Fragments struct {
	Parts  []string
	single bool
}

// String returns the text as one string.
func (f Fragments) String() string { return strings.Join(f.Parts, "") }

// UnmarshalJSON accepts a string or an array of strings.
func (f *Fragments) UnmarshalJSON(b []byte) error {
	if bytes.HasPrefix(bytes.TrimSpace(b), []byte(`"`)) {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*f = Fragments{Parts: []string{s}, single: true}
		return nil
	}
	var parts []string
	if err := json.Unmarshal(b, &parts); err != nil {
		return fmt.Errorf("want a string or an array of strings: %w", err)
	}
	*f = Fragments{Parts: parts}
	return nil
}

// MarshalJSON writes the array form.
func (f Fragments) MarshalJSON() ([]byte, error) {
	if f.single && len(f.Parts) == 1 {
		return json.Marshal(f.Parts[0])
	}
	return json.Marshal(f.Parts)
}

// Text returns fragments sent one per chunk.
func Text(parts ...string) Fragments { return Fragments{Parts: parts} }

// words splits s after each run of spaces: "Hello **there**" → "Hello ",
// "**there**".
func words(s string) []string {
	var out []string
	start := 0
	for i := 1; i < len(s); i++ {
		if s[i-1] == ' ' && s[i] != ' ' {
			out = append(out, s[start:i])
			start = i
		}
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// textChunks is how Text is sent.
func (f Fragments) textChunks() []string {
	if f.single {
		return words(f.Parts[0])
	}
	return f.Parts
}

// ParseScript decodes a script strictly: unknown fields are errors, so a
// typo in a test script fails loudly.
func ParseScript(b []byte) (Script, error) {
	var s Script
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return Script{}, fmt.Errorf("llmtest: script: %w", err)
	}
	for i, r := range s.Responses {
		if err := r.check(fmt.Sprintf("response %d", i)); err != nil {
			return Script{}, err
		}
	}
	for i, rule := range s.When {
		if rule.LastContains == "" {
			return Script{}, fmt.Errorf("llmtest: script: rule %d needs lastContains", i)
		}
		if err := rule.Response.check(fmt.Sprintf("rule %d", i)); err != nil {
			return Script{}, err
		}
	}
	return s, nil
}

// check refuses a response with an error and content, and a tool call
// without an id or a name.
func (r Response) check(what string) error {
	if r.Error != nil && (len(r.Text.Parts) > 0 || len(r.ToolCalls) > 0 || len(r.Reasoning) > 0 || r.Hang) {
		return fmt.Errorf("llmtest: script: %s has an error and content", what)
	}
	for j, tc := range r.ToolCalls {
		if tc.ID == "" || tc.Name == "" {
			return fmt.Errorf("llmtest: script: %s tool call %d needs an id and a name", what, j)
		}
	}
	return nil
}

// LoadScript reads and parses a script file.
func LoadScript(path string) (Script, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Script{}, err
	}
	return ParseScript(b)
}
