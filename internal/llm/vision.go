package llm

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/openai/openai-go/v3/option"
)

// VisionSource says how Gatehouse knows whether a model can see images.
// Extend, don't rename: the page shows these strings' meaning.
type VisionSource string

const (
	// VisionServer: the model server's /models metadata lists the model's
	// input modalities (OpenRouter's architecture.input_modalities, or
	// input_modalities / modalities.input / capabilities elsewhere).
	VisionServer VisionSource = "server"
	// VisionKnownModel: Gatehouse's table of well-known model families.
	VisionKnownModel VisionSource = "known_model"
	// VisionSetting: the user's per-model setting.
	VisionSetting VisionSource = "setting"
	// VisionUnknown: nothing says; images are not sent.
	VisionUnknown VisionSource = "unknown"
)

// Vision is whether a model accepts images, and how that is known.
type Vision struct {
	CanSee bool         `json:"canSee"`
	Source VisionSource `json:"source"`
}

// Known reports whether anything said.
func (v Vision) Known() bool { return v.Source != "" && v.Source != VisionUnknown }

// ServerVision returns what the server's /models metadata says of the
// client's model; Source is VisionUnknown when it says nothing. The answer
// is looked up once per model and kept (a failed lookup is asked again).
func (c *Client) ServerVision(ctx context.Context) Vision {
	model := c.model
	if v, ok := c.visions.Load(model); ok {
		return v.(Vision)
	}
	ctx, cancel := context.WithTimeout(ctx, windowLookupTimeout)
	defer cancel()
	var list struct {
		Data []json.RawMessage `json:"data"`
	}
	if err := c.oa.Get(ctx, "models", nil, &list, option.WithMaxRetries(0)); err != nil {
		return Vision{Source: VisionUnknown}
	}
	v := Vision{Source: VisionUnknown}
	for _, raw := range list.Data {
		if see, ok := serverVision(raw, model); ok {
			v = Vision{CanSee: see, Source: VisionServer}
			break
		}
	}
	c.visions.Store(model, v)
	return v
}

// serverVision reads whether model takes images from its /models entry:
// ok is false when the entry is not model's or names no input modalities.
func serverVision(raw json.RawMessage, model string) (canSee, ok bool) {
	var m struct {
		ID              string   `json:"id"`
		InputModalities []string `json:"input_modalities"`
		Modalities      *struct {
			Input []string `json:"input"`
		} `json:"modalities"`
		Architecture *struct {
			InputModalities []string `json:"input_modalities"`
		} `json:"architecture"`
		Capabilities []string `json:"capabilities"` // Ollama's /api/show words
	}
	if json.Unmarshal(raw, &m) != nil || m.ID != model {
		return false, false
	}
	var in []string
	switch {
	case m.Architecture != nil && len(m.Architecture.InputModalities) > 0:
		in = m.Architecture.InputModalities
	case len(m.InputModalities) > 0:
		in = m.InputModalities
	case m.Modalities != nil && len(m.Modalities.Input) > 0:
		in = m.Modalities.Input
	case len(m.Capabilities) > 0:
		return slices.Contains(m.Capabilities, "vision"), true
	default:
		return false, false
	}
	return slices.Contains(in, "image"), true
}

// knownVision are well-known model families by id prefix (after any
// "provider/" part), the more specific first: whether they take images.
var knownVision = []struct {
	prefix string
	see    bool
}{
	{"gpt-3.5", false},
	{"gpt-4o", true},
	{"gpt-4.1", true},
	{"gpt-4-turbo", true},
	{"gpt-5", true},
	{"o1-mini", false},
	{"o3-mini", false},
	{"o1", true},
	{"o3", true},
	{"o4-mini", true},
	{"claude-3", true},
	{"claude-sonnet-4", true},
	{"claude-opus-4", true},
	{"gemini", true},
	{"llava", true},
	{"bakllava", true},
	{"llama3.2-vision", true},
	{"llama-3.2-11b-vision", true},
	{"llama-3.2-90b-vision", true},
	{"qwen2.5-vl", true},
	{"qwen2-vl", true},
	{"pixtral", true},
	{"gemma3", true},
	{"minicpm-v", true},
	{"qwen2.5-coder", false},
	{"qwen3-coder", false},
	{"deepseek", false},
	{"codellama", false},
	{"llama3.1", false},
	{"llama-3.1", false},
	{"llama3.3", false},
	{"llama-3.3", false},
	{"mistral", false},
	{"codestral", false},
}

// KnownVisionOf looks model up in the table of well-known families.
func KnownVisionOf(model string) Vision {
	id := strings.ToLower(model)
	if i := strings.LastIndexByte(id, '/'); i >= 0 {
		id = id[i+1:]
	}
	for _, k := range knownVision {
		if strings.HasPrefix(id, k.prefix) {
			return Vision{CanSee: k.see, Source: VisionKnownModel}
		}
	}
	return Vision{Source: VisionUnknown}
}

// ResolveVision decides from what the server said, the table and the
// user's per-model setting (nil: none), in that order.
func ResolveVision(server Vision, model string, setting *bool) Vision {
	if server.Known() {
		return server
	}
	if v := KnownVisionOf(model); v.Known() {
		return v
	}
	if setting != nil {
		return Vision{CanSee: *setting, Source: VisionSetting}
	}
	return Vision{Source: VisionUnknown}
}

// VisionRefusal words why model will not be sent images, for the
// composer; "" when it can see.
func VisionRefusal(model string, v Vision) string {
	switch {
	case v.CanSee:
		return ""
	case v.Source == VisionServer:
		return "The model " + model + " cannot see images: its server lists text as its only input."
	case v.Source == VisionKnownModel:
		return "The model " + model + " cannot see images. Choose a model that can to attach pictures."
	case v.Source == VisionSetting:
		return "The model " + model + " is marked as one that cannot see images."
	}
	return "Gatehouse does not know whether " + model + " can see images, so it sends none. If it can, mark it as one that sees."
}
