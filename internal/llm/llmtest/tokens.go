package llmtest

import (
	"encoding/json"
	"fmt"
	"strings"
)

// imageTokens is what the server counts for each image of a request.
const imageTokens = 765

// Token counting and the context window.
//
// The server counts a request's prompt tokens itself, on purpose not the way
// Gatehouse's client estimates them (about four bytes a token of the text it
// sends): it takes every string in the request's messages (or input and
// instructions) and tool definitions, JSON keys included, at three bytes a
// token, plus four tokens a message. That is the more pessimistic count, as
// real tokenizers often are on code and JSON, so a client that trusts its
// own estimate instead of the server's usage runs into the window.
//
// The count is the prompt_tokens (input_tokens) of the usage the server
// reports unless the script gives a Usage. With Script.ContextWindow set, a
// request whose count exceeds it is refused with HTTP 400
// context_length_exceeded, the shape OpenAI and vLLM use, and takes no
// scripted response.

// countTokens counts the prompt tokens of a request body: its messages or
// input, its instructions and its tools.
func countTokens(body []byte) int64 {
	var req map[string]any
	if json.Unmarshal(body, &req) != nil {
		return 0
	}
	bytes, items := 0, 0
	for _, k := range []string{"messages", "input", "instructions", "tools"} {
		bytes += stringBytes(req[k])
		if list, ok := req[k].([]any); ok && k != "tools" {
			items += len(list)
		}
	}
	return int64(bytes/3 + 4*items)
}

// stringBytes is the length of every string (keys and values) in a decoded
// JSON value, leaving out reasoning items' encrypted_content, which a real
// server decrypts rather than reads.
func stringBytes(v any) int {
	switch x := v.(type) {
	case string:
		if strings.HasPrefix(x, "data:image/") {
			// An image counts as a real server counts a high-detail
			// 1024×1024 one (765 tokens), not by its base64 text.
			return 3 * imageTokens
		}
		return len(x)
	case []any:
		n := 0
		for _, e := range x {
			n += stringBytes(e)
		}
		return n
	case map[string]any:
		n := 0
		for k, e := range x {
			if k != "encrypted_content" {
				n += len(k) + stringBytes(e)
			}
		}
		return n
	}
	return 0
}

// contextExceeded is the refusal of a request of n tokens past window.
func contextExceeded(window, n int64) APIError {
	return APIError{Status: 400, Code: "context_length_exceeded", Type: "invalid_request_error", Param: "messages",
		Message: fmt.Sprintf("This model's maximum context length is %d tokens. However, your messages resulted in %d tokens. Please reduce the length of the messages.", window, n)}
}
