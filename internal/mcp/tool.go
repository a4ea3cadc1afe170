package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/internal/images"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
)

// Error codes of MCP call results (beside tools' own codes).
const (
	// CodeToolError: the server ran the tool and reported an error (isError).
	CodeToolError = "mcp_tool_error"
	// CodeServerError: the call did not get an answer from the server (not
	// ready, connection ended, protocol error).
	CodeServerError = "mcp_server_error"
)

// MaxResultBytes caps the text of one result the model reads.
const MaxResultBytes = 100_000

// foldAt is how many characters of a long string argument the dialog shows.
const foldAt = 300

// Tool is one tool of a server on the session's tool surface. It describes
// its calls to the gate (tools.Gated): server, tool, description and the
// arguments with long strings folded; a session rule covers it by name,
// that is, this server's tool.
type Tool struct {
	srv    *server
	remote string // the tool's name on the server
	spec   tools.Spec
	hint   bool // the server's readOnlyHint
}

func newTool(s *server, t *sdk.Tool, surface string) *Tool {
	hint := t.Annotations != nil && t.Annotations.ReadOnlyHint
	return &Tool{
		srv: s, remote: t.Name, hint: hint,
		spec: tools.Spec{
			Name: surface, Description: t.Description, Parameters: normalizeSchema(t.InputSchema),
			// A hint is the server's claim: it counts only when the user
			// trusts this server's hints.
			ReadOnly: hint && s.cfg.TrustReadOnlyHints,
		},
	}
}

// Spec is what the model sees.
func (t *Tool) Spec() tools.Spec { return t.spec }

// Server and Remote name the server and the tool's own name on it.
func (t *Tool) Server() string { return t.srv.name }
func (t *Tool) Remote() string { return t.remote }

// Prepare describes the call for the approval dialog; it changes nothing.
func (t *Tool) Prepare(_ context.Context, args json.RawMessage) (*tools.Prepared, tools.Result, bool) {
	if res, ok := checkObject(args); !ok {
		return nil, res, false
	}
	return &tools.Prepared{
		Mcp:      &protocol.McpPreview{Server: t.srv.name, Tool: t.remote, Description: t.spec.Description},
		ArgsText: FoldArgs(args, foldAt),
		Run: func(ctx context.Context, _ protocol.Decision) (tools.Result, error) {
			return t.Run(ctx, args)
		},
	}, tools.Result{}, true
}

func checkObject(args json.RawMessage) (tools.Result, bool) {
	if len(bytes.TrimSpace(args)) == 0 {
		return tools.Result{}, true
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(args, &m); err != nil {
		return tools.Fail(tools.CodeInvalidArguments, "arguments must be a JSON object: "+err.Error(), ""), false
	}
	return tools.Result{}, true
}

// Run calls the tool on the server, bounded by the server's call timeout;
// cancelling ctx (the turn) cancels the call on the server.
func (t *Tool) Run(ctx context.Context, args json.RawMessage) (tools.Result, error) {
	if res, ok := checkObject(args); !ok {
		return res, nil
	}
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage("{}")
	}
	sess := t.srv.current(ctx)
	if sess == nil {
		st := t.srv.status()
		return tools.Fail(CodeServerError, fmt.Sprintf("MCP server %q is %s, so %s cannot run now", t.srv.name, st.State, t.remote), ""), nil
	}
	timeout := t.srv.config().CallTimeout()
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	token, end := t.srv.begin(cctx)
	defer end()
	params := &sdk.CallToolParams{Name: t.remote, Arguments: args}
	params.SetProgressToken(token)
	res, err := sess.CallTool(cctx, params)
	if err != nil {
		switch {
		case ctx.Err() != nil:
			return tools.Fail(tools.CodeNotRun, fmt.Sprintf("the call of %s on %q was cancelled", t.remote, t.srv.name), ""), nil
		case errors.Is(cctx.Err(), context.DeadlineExceeded):
			return tools.Fail(tools.CodeTimeout, fmt.Sprintf("MCP server %q did not answer %s within %s", t.srv.name, t.remote, timeout), ""), nil
		case errors.Is(err, sdk.ErrConnectionClosed):
			return tools.Fail(CodeServerError, fmt.Sprintf("MCP server %q closed its connection during %s", t.srv.name, t.remote), ""), nil
		}
		return tools.Fail(CodeServerError, fmt.Sprintf("MCP server %q: %s: %v", t.srv.name, t.remote, err), ""), nil
	}
	return mapResult(res, MaxResultBytes, pictures(ctx, fmt.Sprintf("%s from %s", t.remote, t.srv.name)), t.srv.name), nil
}

// MapResult turns a server's result into what the model reads: text parts
// as they are, an image or audio as a short note, a resource link as text,
// an embedded resource's text; capped at max bytes. isError makes an error
// result the model reads.
func MapResult(res *sdk.CallToolResult, max int) tools.Result { return mapResult(res, max, nil, "") }

// mapResult is MapResult that shows images to a model that sees: keep (nil:
// none is shown) prepares and saves a picture, or says why not; the
// resources it links or embeds are listed as server's.
func mapResult(res *sdk.CallToolResult, max int, keep func(*sdk.ImageContent) (images.Image, error), server string) tools.Result {
	var parts []string
	var shown []images.Image
	var linked []resourceRef
	for _, c := range res.Content {
		switch c := c.(type) {
		case *sdk.TextContent:
			parts = append(parts, c.Text)
		case *sdk.ImageContent:
			parts = append(parts, picture(c, keep, &shown))
		case *sdk.AudioContent:
			parts = append(parts, fmt.Sprintf("[audio: %s, %s; refused: Gatehouse does not pass audio to the model]", orUnknown(c.MIMEType), size(len(c.Data))))
		case *sdk.ResourceLink:
			line := "[resource link] " + c.URI
			if c.Name != "" {
				line += " (" + c.Name + ")"
			}
			if c.Description != "" {
				line += ": " + c.Description
			}
			parts = append(parts, line)
			linked = append(linked, resourceRef{Server: server, URI: c.URI, Name: c.Name, MimeType: c.MIMEType})
		case *sdk.EmbeddedResource:
			parts = append(parts, embedded(c.Resource))
			if c.Resource != nil && c.Resource.URI != "" {
				linked = append(linked, resourceRef{Server: server, URI: c.Resource.URI, MimeType: c.Resource.MIMEType, Embedded: true})
			}
		default:
			b, _ := json.Marshal(c)
			parts = append(parts, string(b))
		}
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		parts = append(parts, string(b))
	}
	text, cut := capText(strings.Join(parts, "\n"), max)
	if res.IsError {
		if text == "" {
			text = "the tool reported an error without a message"
		}
		return tools.Fail(CodeToolError, text, "")
	}
	out := struct {
		Content   string        `json:"content"`
		Truncated bool          `json:"truncated,omitempty"`
		Resources []resourceRef `json:"resources,omitempty"`
	}{text, cut, linked}
	b, _ := json.Marshal(out) // strings only
	return tools.Result{Output: b, Images: shown}
}

// resourceRef is a resource a result links or embeds, listed beside the
// content so the card can offer to open it (a link is read on click).
type resourceRef struct {
	Server   string `json:"server,omitempty"`
	URI      string `json:"uri"`
	Name     string `json:"name,omitempty"`
	MimeType string `json:"mimeType,omitempty"`
	Embedded bool   `json:"embedded,omitempty"`
}

func embedded(r *sdk.ResourceContents) string {
	if r == nil {
		return "[resource]"
	}
	if r.Text != "" || len(r.Blob) == 0 {
		return "[resource " + r.URI + "]\n" + r.Text
	}
	return fmt.Sprintf("[resource %s: %s, %s of binary; not shown]", r.URI, orUnknown(r.MIMEType), size(len(r.Blob)))
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}

func size(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// capText keeps at most max bytes of s (on a rune boundary) and says what
// was cut.
func capText(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	head := s[:max]
	for len(head) > 0 && !utf8.ValidString(head) {
		head = head[:len(head)-1]
	}
	return head + fmt.Sprintf("\n[… cut: the result was %d bytes; the first %d are shown]", len(s), len(head)), true
}

// FoldArgs pretty-prints args with every string longer than n characters
// folded to its first n and a count of the rest.
func FoldArgs(args json.RawMessage, n int) string {
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return string(args)
	}
	b, err := json.MarshalIndent(fold(v, n), "", "  ")
	if err != nil {
		return string(args)
	}
	return string(b)
}

func fold(v any, n int) any {
	switch v := v.(type) {
	case string:
		if utf8.RuneCountInString(v) > n {
			r := []rune(v)
			return string(r[:n]) + fmt.Sprintf("… (%d more characters)", len(r)-n)
		}
		return v
	case map[string]any:
		for k, x := range v {
			v[k] = fold(x, n)
		}
		return v
	case []any:
		for i, x := range v {
			v[i] = fold(x, n)
		}
		return v
	}
	return v
}
