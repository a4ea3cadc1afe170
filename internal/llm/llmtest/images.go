package llmtest

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
)

// SentImage is one image a model request carried, as the server read it.
type SentImage struct {
	// API is "chat" or "responses".
	API string `json:"api"`
	// Role is the message that carried it: "user", or on /responses
	// "function_call_output" for an image inside a tool's output.
	Role string `json:"role"`
	// Message is the index of the message (chat) or input item (responses).
	Message int    `json:"message"`
	MIME    string `json:"mime"`
	Detail  string `json:"detail"`
	// Bytes is the decoded size of the data URL's payload.
	Bytes int `json:"bytes"`
	// Data is the decoded payload, for tests comparing bytes; not in the
	// JSON of /_requests.
	Data []byte `json:"-"`
}

// readImages records the images of a model request body on rec and checks
// them: a data URL that decodes, a detail (openai-go marks it required on
// Chat Completions), no image in a chat tool message (which carries text
// only), and none at all for a model whose ModelMeta lists text as its only
// input. Called with h.mu held.
func (h *Handler) readImages(reqIdx int, body []byte) {
	var req struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Input json.RawMessage `json:"input"`
	}
	if json.Unmarshal(body, &req) != nil {
		return
	}
	var out []SentImage
	add := func(api, role string, i int, url, detail string) {
		im := SentImage{API: api, Role: role, Message: i, Detail: detail}
		rest, ok := strings.CutPrefix(url, "data:")
		mime, b64, ok2 := strings.Cut(rest, ";base64,")
		data, err := base64.StdEncoding.DecodeString(b64)
		if !ok || !ok2 || err != nil {
			h.violate("request %d: message %d: image is not a base64 data URL", reqIdx, i)
		}
		if got := http.DetectContentType(data); got != mime {
			h.violate("request %d: message %d: data URL says %s but holds %s", reqIdx, i, mime, got)
		}
		if detail == "" && api == "chat" {
			h.violate("request %d: message %d: image_url without detail", reqIdx, i)
		}
		im.MIME, im.Bytes, im.Data = mime, len(data), data
		out = append(out, im)
	}
	for i, m := range req.Messages {
		var parts []struct {
			Type     string `json:"type"`
			ImageURL *struct {
				URL    string `json:"url"`
				Detail string `json:"detail"`
			} `json:"image_url"`
		}
		if len(m.Content) == 0 || m.Content[0] != '[' || json.Unmarshal(m.Content, &parts) != nil {
			continue
		}
		for _, p := range parts {
			if p.Type != "image_url" || p.ImageURL == nil {
				continue
			}
			if m.Role != "user" {
				h.violate("request %d: message %d: a %s message carries an image; only user messages may", reqIdx, i, m.Role)
			}
			add("chat", m.Role, i, p.ImageURL.URL, p.ImageURL.Detail)
		}
	}
	var input []struct {
		Type    string          `json:"type"`
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
		Output  json.RawMessage `json:"output"`
	}
	if len(req.Input) > 0 && req.Input[0] == '[' && json.Unmarshal(req.Input, &input) == nil {
		type part struct {
			Type     string `json:"type"`
			ImageURL string `json:"image_url"`
			Detail   string `json:"detail"`
		}
		for i, it := range input {
			list, role := it.Content, it.Role
			if it.Type == "function_call_output" {
				list, role = it.Output, "function_call_output"
			}
			var parts []part
			if len(list) == 0 || list[0] != '[' || json.Unmarshal(list, &parts) != nil {
				continue
			}
			for _, p := range parts {
				if p.Type == "input_image" {
					add("responses", role, i, p.ImageURL, p.Detail)
				}
			}
		}
	}
	if len(out) > 0 && h.textOnly(req.Model) {
		h.violate("request %d: %d image(s) sent to %s, which takes text only", reqIdx, len(out), req.Model)
	}
	h.requests[reqIdx].Images = out
}

// textOnly reports whether the script's ModelMeta lists model's input
// modalities without "image".
func (h *Handler) textOnly(model string) bool {
	meta := h.script.ModelMeta[model]
	var in []any
	if arch, ok := meta["architecture"].(map[string]any); ok {
		in, _ = arch["input_modalities"].([]any)
	}
	if v, ok := meta["input_modalities"].([]any); ok {
		in = v
	}
	return len(in) > 0 && !slices.Contains(in, any("image"))
}

// Images returns the images the i-th model request (counting from 0, chat
// and responses alike) carried, with their bytes.
func (h *Handler) Images(i int) []SentImage {
	reqs := h.ModelRequests()
	if i < 0 || i >= len(reqs) {
		return nil
	}
	return reqs[i].Images
}
