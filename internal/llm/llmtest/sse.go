package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

type chunkDelta struct {
	Role      string          `json:"role,omitempty"`
	Content   *string         `json:"content,omitempty"`
	ToolCalls []chunkToolCall `json:"tool_calls,omitempty"`
}

type chunkToolCall struct {
	Index    int    `json:"index"`
	ID       string `json:"id,omitempty"`
	Type     string `json:"type,omitempty"`
	Function struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type chunkChoice struct {
	Index        int        `json:"index"`
	Delta        chunkDelta `json:"delta"`
	FinishReason *string    `json:"finish_reason"`
}

type chunkUsage struct {
	PromptTokens        int64 `json:"prompt_tokens"`
	CompletionTokens    int64 `json:"completion_tokens"`
	TotalTokens         int64 `json:"total_tokens"`
	PromptTokensDetails struct {
		CachedTokens int64 `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
}

type chunk struct {
	ID      string        `json:"id"`
	Object  string        `json:"object"`
	Created int64         `json:"created"`
	Model   string        `json:"model"`
	Choices []chunkChoice `json:"choices"`
	Usage   *chunkUsage   `json:"usage"`
}

// contentChunks returns the content chunks of resp: the role, the text pieces, the
// tool-call pieces. The finish and usage chunks come after.
func contentChunks(resp Response) []chunkChoice {
	str := func(s string) *string { return &s }
	out := []chunkChoice{{Delta: chunkDelta{Role: "assistant", Content: str("")}}}
	if len(resp.Text.Parts) > 0 {
		for _, t := range resp.Text.textChunks() {
			out = append(out, chunkChoice{Delta: chunkDelta{Content: str(t)}})
		}
	}
	// Per call: a head chunk (id, name, empty arguments), then fragments.
	perCall := make([][]chunkToolCall, len(resp.ToolCalls))
	for i, tc := range resp.ToolCalls {
		head := chunkToolCall{Index: i, ID: tc.ID, Type: "function"}
		head.Function.Name = tc.Name
		perCall[i] = append(perCall[i], head)
		for _, a := range tc.Arguments.Parts {
			frag := chunkToolCall{Index: i}
			frag.Function.Arguments = a
			perCall[i] = append(perCall[i], frag)
		}
	}
	emit := func(tc chunkToolCall) {
		out = append(out, chunkChoice{Delta: chunkDelta{ToolCalls: []chunkToolCall{tc}}})
	}
	if resp.Interleave {
		for step := 0; ; step++ {
			more := false
			for _, pieces := range perCall {
				if step < len(pieces) {
					emit(pieces[step])
					more = true
				}
			}
			if !more {
				break
			}
		}
	} else {
		for _, pieces := range perCall {
			for _, p := range pieces {
				emit(p)
			}
		}
	}
	return out
}

// stream writes resp as SSE. It calls completed once the stream is whole
// but for its last line ([DONE]), so the server knows of the calls before
// the client can make its next request, and reports whether the stream was
// completed rather than hung, failed or abandoned.
func stream(w http.ResponseWriter, r *http.Request, n int, model string, resp Response, includeUsage bool, completed func()) bool {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	id := fmt.Sprintf("chatcmpl-llmtest-%d", n)
	delay := time.Duration(resp.DelayMs) * time.Millisecond
	send := func(data any) bool {
		if !sleep(r, delay) {
			return false
		}
		b, _ := json.Marshal(data)
		if _, err := fmt.Fprintf(w, "data: %s\n\n", b); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	mk := func(choices []chunkChoice, usage *chunkUsage) chunk {
		if choices == nil {
			choices = []chunkChoice{}
		}
		return chunk{ID: id, Object: "chat.completion.chunk", Model: model, Choices: choices, Usage: usage}
	}

	content := contentChunks(resp)
	for _, c := range content {
		if !send(mk([]chunkChoice{c}, nil)) {
			return false
		}
	}
	if resp.Hang {
		<-r.Context().Done()
		return false
	}
	if e := resp.StreamError; e != nil {
		send(map[string]any{"error": map[string]any{"message": e.Message, "type": e.Type, "code": e.Code}})
		return false
	}
	finish := resp.FinishReason
	if finish == "" {
		finish = "stop"
		if len(resp.ToolCalls) > 0 {
			finish = "tool_calls"
		}
	}
	if !send(mk([]chunkChoice{{Delta: chunkDelta{}, FinishReason: &finish}}, nil)) {
		return false
	}
	if includeUsage {
		u := Usage{PromptTokens: resp.promptTokens, CompletionTokens: int64(len(content))}
		if resp.Usage != nil {
			u = *resp.Usage
		}
		cu := &chunkUsage{PromptTokens: u.PromptTokens, CompletionTokens: u.CompletionTokens,
			TotalTokens: u.PromptTokens + u.CompletionTokens}
		cu.PromptTokensDetails.CachedTokens = u.CachedTokens
		if !send(mk(nil, cu)) {
			return false
		}
	}
	if !sleep(r, delay) {
		return false
	}
	completed()
	fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
	return true
}
