package llmtest

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
)

// ChatRequest returns the body of the i-th Chat Completions request
// (counting from 0), and false when there was none.
func (h *Handler) ChatRequest(i int) (json.RawMessage, bool) {
	n := -1
	for _, r := range h.Requests() {
		if r.Method != "POST" || !strings.HasSuffix(r.Path, "/chat/completions") {
			continue
		}
		if n++; n == i {
			return r.Body, true
		}
	}
	return nil, false
}

// ToolNames names the tools the i-th Chat Completions request offered,
// sorted.
func (h *Handler) ToolNames(i int) ([]string, error) {
	b, ok := h.ChatRequest(i)
	if !ok {
		return nil, fmt.Errorf("no model request %d", i)
	}
	var body struct {
		Tools []struct {
			Function struct{ Name string } `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(b, &body); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(body.Tools))
	for _, t := range body.Tools {
		out = append(out, t.Function.Name)
	}
	sort.Strings(out)
	return out, nil
}
