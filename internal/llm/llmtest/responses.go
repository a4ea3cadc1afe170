package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"
)

// responsesBody is the part of a Responses API request the server reads.
type responsesBody struct {
	Model   string          `json:"model"`
	Stream  bool            `json:"stream"`
	Input   json.RawMessage `json:"input"`
	Include []string        `json:"include"`
}

// includeReasoning is the include value that gets reasoning items their
// encrypted_content.
const includeReasoning = "reasoning.encrypted_content"

// inputItem is one item of a request's input list.
type inputItem struct {
	Type             string          `json:"type"`
	Role             string          `json:"role"`
	CallID           string          `json:"call_id"`
	ID               string          `json:"id"`
	EncryptedContent string          `json:"encrypted_content"`
	Content          json.RawMessage `json:"content"`
}

func (h *Handler) serveResponses(w http.ResponseWriter, r *http.Request, body []byte, reqIdx int) {
	var req responsesBody
	if err := json.Unmarshal(body, &req); err != nil {
		writeError(w, APIError{Status: 400, Message: "fake server: body is not JSON: " + err.Error()})
		return
	}
	var input []inputItem
	if len(req.Input) > 0 && req.Input[0] == '[' {
		if err := json.Unmarshal(req.Input, &input); err != nil {
			writeError(w, APIError{Status: 400, Message: "fake server: input is not a list of items: " + err.Error()})
			return
		}
	}
	if h.script.RefuseInclude && len(req.Include) > 0 {
		writeError(w, APIError{Status: 400, Type: "invalid_request_error", Param: "include",
			Message: "Unsupported parameter: 'include'."})
		return
	}
	h.checkReasoning(input, reqIdx)
	var items []historyItem
	for _, it := range input {
		switch it.Type {
		case "function_call":
			items = append(items, historyItem{call: it.CallID})
		case "function_call_output":
			items = append(items, historyItem{result: it.CallID, isResult: true})
		}
	}
	last := ""
	if len(input) > 0 {
		last = string(input[len(input)-1].Content)
	}
	n, resp, ok := h.take(w, req.Model, items, last, reqIdx)
	if !ok {
		return
	}
	if !req.Stream {
		writeError(w, APIError{Status: 400, Message: "fake server: only streaming requests are scripted"})
		return
	}
	include := slices.Contains(req.Include, includeReasoning)
	if include {
		h.issue(n, resp)
	}
	streamResponse(w, r, n, req.Model, resp, include, func() { h.completed(n, resp) })
}

func reasoningID(n, i int) string { return fmt.Sprintf("rs_llmtest_%d_%d", n, i) }

// issue notes the encrypted_content of response n's reasoning items, which
// a later request may send back.
func (h *Handler) issue(n int, resp Response) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.issued == nil {
		h.issued = map[string]string{}
	}
	for i, rs := range resp.Reasoning {
		h.issued[reasoningID(n, i)] = rs.Encrypted
	}
}

// checkReasoning records a violation for every reasoning item in input
// that OpenAI would refuse with store false: one without the
// encrypted_content the server sent for its id, and one not followed
// (after any further reasoning items) by the assistant output it led to, a
// message or a function call.
func (h *Handler) checkReasoning(input []inputItem, reqIdx int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for i, it := range input {
		if it.Type != "reasoning" {
			continue
		}
		if sent, ok := h.issued[it.ID]; !ok || sent != it.EncryptedContent {
			h.violate("request %d: reasoning item %d (%s) lacks the encrypted_content sent with it", reqIdx, i, it.ID)
		}
		j := i + 1
		for j < len(input) && input[j].Type == "reasoning" {
			j++
		}
		if j == len(input) || (input[j].Type != "function_call" && input[j].Role != "assistant") {
			h.violate("request %d: reasoning item %d (%s) is not followed by a message or function call", reqIdx, i, it.ID)
		}
	}
}

// responseEvent is one Responses API event: its type plus its fields.
type responseEvent map[string]any

// responseEvents returns the events of resp up to (not including) the
// terminal one, and the finished output items for the terminal response.
// Reasoning items come first (encrypted_content in the finished item, when
// include asked for it), then a message item (its text one delta per
// chunk), then one function_call item per call, its arguments one delta
// per fragment; Interleave alternates the deltas of parallel calls.
func responseEvents(n int, resp Response, include bool) (events []responseEvent, output []any) {
	index := 0
	for i, rs := range resp.Reasoning {
		id := reasoningID(n, i)
		summary := []any{}
		if rs.Summary != "" {
			summary = append(summary, map[string]any{"type": "summary_text", "text": rs.Summary})
		}
		item := map[string]any{"type": "reasoning", "id": id, "summary": []any{}}
		done := map[string]any{"type": "reasoning", "id": id, "summary": summary}
		if include {
			done["encrypted_content"] = rs.Encrypted
		}
		events = append(events,
			responseEvent{"type": "response.output_item.added", "output_index": index, "item": item},
			responseEvent{"type": "response.output_item.done", "output_index": index, "item": done})
		output = append(output, done)
		index++
	}
	if len(resp.Text.Parts) > 0 {
		id := fmt.Sprintf("msg_llmtest_%d", n)
		item := map[string]any{"type": "message", "id": id, "role": "assistant", "status": "in_progress", "content": []any{}}
		events = append(events,
			responseEvent{"type": "response.output_item.added", "output_index": index, "item": item},
			responseEvent{"type": "response.content_part.added", "output_index": index, "item_id": id, "content_index": 0,
				"part": map[string]any{"type": "output_text", "text": "", "annotations": []any{}}})
		text := ""
		for _, t := range resp.Text.textChunks() {
			text += t
			events = append(events, responseEvent{"type": "response.output_text.delta", "output_index": index,
				"item_id": id, "content_index": 0, "delta": t, "logprobs": []any{}})
		}
		part := map[string]any{"type": "output_text", "text": text, "annotations": []any{}}
		done := map[string]any{"type": "message", "id": id, "role": "assistant", "status": "completed", "content": []any{part}}
		events = append(events,
			responseEvent{"type": "response.output_text.done", "output_index": index, "item_id": id, "content_index": 0, "text": text, "logprobs": []any{}},
			responseEvent{"type": "response.content_part.done", "output_index": index, "item_id": id, "content_index": 0, "part": part},
			responseEvent{"type": "response.output_item.done", "output_index": index, "item": done})
		output = append(output, done)
		index++
	}
	type call struct {
		index  int
		item   map[string]any
		deltas []responseEvent
		done   []responseEvent
	}
	var calls []call
	for i, tc := range resp.ToolCalls {
		id := fmt.Sprintf("fc_llmtest_%d_%d", n, i)
		c := call{index: index + i,
			item: map[string]any{"type": "function_call", "id": id, "call_id": tc.ID, "name": tc.Name, "arguments": "", "status": "in_progress"}}
		for _, a := range tc.Arguments.Parts {
			c.deltas = append(c.deltas, responseEvent{"type": "response.function_call_arguments.delta",
				"output_index": c.index, "item_id": id, "delta": a})
		}
		args := tc.Arguments.String()
		done := map[string]any{"type": "function_call", "id": id, "call_id": tc.ID, "name": tc.Name, "arguments": args, "status": "completed"}
		c.done = []responseEvent{
			{"type": "response.function_call_arguments.done", "output_index": c.index, "item_id": id, "arguments": args},
			{"type": "response.output_item.done", "output_index": c.index, "item": done},
		}
		output = append(output, done)
		calls = append(calls, c)
	}
	if resp.Interleave {
		for _, c := range calls {
			events = append(events, responseEvent{"type": "response.output_item.added", "output_index": c.index, "item": c.item})
		}
		for step := 0; ; step++ {
			more := false
			for _, c := range calls {
				if step < len(c.deltas) {
					events = append(events, c.deltas[step])
					more = true
				}
			}
			if !more {
				break
			}
		}
		for _, c := range calls {
			events = append(events, c.done...)
		}
	} else {
		for _, c := range calls {
			events = append(events, responseEvent{"type": "response.output_item.added", "output_index": c.index, "item": c.item})
			events = append(events, c.deltas...)
			events = append(events, c.done...)
		}
	}
	return events, output
}

// streamResponse writes resp as Responses API SSE: response.created, the
// output events, then response.completed (or response.incomplete for a
// "length" or "content_filter" FinishReason) with the usage. StreamError
// ends it with response.failed instead; Hang holds it open after the
// output events. It calls completed right before the terminal event of a
// completed stream (the client may make its next request as soon as that
// arrives), and reports whether the stream was completed.
func streamResponse(w http.ResponseWriter, r *http.Request, n int, model string, resp Response, include bool, completed func()) bool {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	delay := time.Duration(resp.DelayMs) * time.Millisecond
	seq := 0
	write := func(ev responseEvent) bool {
		ev["sequence_number"] = seq
		seq++
		b, _ := json.Marshal(ev)
		if _, err := fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev["type"], b); err != nil {
			return false
		}
		if flusher != nil {
			flusher.Flush()
		}
		return true
	}
	send := func(ev responseEvent) bool { return sleep(r, delay) && write(ev) }
	id := fmt.Sprintf("resp_llmtest_%d", n)
	response := func(status string, output []any) map[string]any {
		if output == nil {
			output = []any{}
		}
		return map[string]any{"id": id, "object": "response", "created_at": 0, "status": status, "model": model,
			"output": output, "error": nil, "incomplete_details": nil, "store": false}
	}
	if !send(responseEvent{"type": "response.created", "response": response("in_progress", nil)}) {
		return false
	}
	events, output := responseEvents(n, resp, include)
	for _, ev := range events {
		if !send(ev) {
			return false
		}
	}
	if resp.Hang {
		<-r.Context().Done()
		return false
	}
	u := Usage{PromptTokens: resp.promptTokens, CompletionTokens: int64(len(events))}
	if resp.Usage != nil {
		u = *resp.Usage
	}
	usage := map[string]any{"input_tokens": u.PromptTokens, "output_tokens": u.CompletionTokens,
		"total_tokens":          u.PromptTokens + u.CompletionTokens,
		"input_tokens_details":  map[string]any{"cached_tokens": u.CachedTokens},
		"output_tokens_details": map[string]any{"reasoning_tokens": 0}}
	if e := resp.StreamError; e != nil {
		code := e.Code
		if code == "" {
			code = "server_error"
		}
		failed := response("failed", output)
		failed["error"] = map[string]any{"code": code, "message": e.Message}
		send(responseEvent{"type": "response.failed", "response": failed})
		return false
	}
	final := response("completed", output)
	typ := "response.completed"
	switch resp.FinishReason {
	case "length":
		final["status"], typ = "incomplete", "response.incomplete"
		final["incomplete_details"] = map[string]any{"reason": "max_output_tokens"}
	case "content_filter":
		final["status"], typ = "incomplete", "response.incomplete"
		final["incomplete_details"] = map[string]any{"reason": "content_filter"}
	}
	final["usage"] = usage
	if !sleep(r, delay) {
		return false
	}
	completed()
	return write(responseEvent{"type": typ, "response": final})
}
