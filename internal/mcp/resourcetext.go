package mcp

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/internal/images"
	"gatehouse/internal/protocol"
)

// What a mentioned resource attaches to a message, and what the window
// shows of one it opens.

// MaxMentionChars caps the text one mentioned resource attaches: a
// mentioned file's cap (its read_file maxChars).
const MaxMentionChars = 100_000

// MaxShownBytes caps the text, and a picture's bytes, the window is sent
// when it opens a resource.
const MaxShownBytes = 1 << 20

// Keep prepares and saves a mentioned picture for the model (the
// session's image store); nil: no picture is sent (the model cannot see).
type Keep func(name string, data []byte) (images.Image, error)

// MentionText reads the resource a mention names (ResourceMention) and
// returns what the message carries for it: its text parts whole, a picture
// as a line followed by the picture (through keep), and a line for what is
// not sent (binary content, text over MaxMentionChars). An error names why
// nothing could be read.
func (m *Manager) MentionText(ctx context.Context, mention string, keep Keep) (string, []images.Image, error) {
	server, uri, ok := m.ParseMention(mention)
	if !ok {
		return "", nil, fmt.Errorf("no MCP server offers it (the server was removed or renamed)")
	}
	contents, err := m.ReadResource(ctx, server, uri)
	if err != nil {
		return "", nil, err
	}
	if len(contents) == 0 {
		return "", nil, fmt.Errorf("MCP server %q returned nothing for %s", server, uri)
	}
	var b strings.Builder
	var shown []images.Image
	for _, c := range contents {
		u := c.URI
		if u == "" {
			u = uri
		}
		fmt.Fprintf(&b, "<resource server=%q uri=%q", server, u)
		if c.MIMEType != "" {
			fmt.Fprintf(&b, " mimeType=%q", c.MIMEType)
		}
		b.WriteString(">\n")
		b.WriteString(mentionPart(c, keep, &shown))
		b.WriteString("\n</resource>\n")
	}
	return b.String(), shown, nil
}

// mentionPart is one content of a mentioned resource as the model reads it.
func mentionPart(c *sdk.ResourceContents, keep Keep, shown *[]images.Image) string {
	if len(c.Blob) == 0 {
		if n := utf8.RuneCountInString(c.Text); n > MaxMentionChars {
			return fmt.Sprintf("[not attached: the resource's text is %d characters, over the %d a mention attaches]", n, MaxMentionChars)
		}
		return c.Text
	}
	what := fmt.Sprintf("%s, %s", orUnknown(c.MIMEType), size(len(c.Blob)))
	if !strings.HasPrefix(c.MIMEType, "image/") {
		return fmt.Sprintf("[not attached: %s of binary content; a mention attaches text and pictures]", what)
	}
	if keep == nil {
		return fmt.Sprintf("[image: %s; not attached: the model in use cannot see images]", what)
	}
	if len(c.Blob) > images.MaxBytes {
		return fmt.Sprintf("[image: %s; not attached: pictures are limited to 20 MB]", what)
	}
	im, err := keep(c.URI, c.Blob)
	if err != nil {
		return fmt.Sprintf("[image: %s; not attached: %v]", what, err)
	}
	*shown = append(*shown, im)
	return fmt.Sprintf("[image: %s, %d×%d; the picture follows the message]", im.MIME, im.Width, im.Height)
}

// Open reads server's resource uri for the window: text parts (capped at
// MaxShownBytes), pictures as base64, and a note for what is not shown.
func (m *Manager) Open(ctx context.Context, server, uri string) (protocol.McpResourceRead, error) {
	contents, err := m.ReadResource(ctx, server, uri)
	if err != nil {
		return protocol.McpResourceRead{}, err
	}
	out := protocol.McpResourceRead{Server: server, URI: uri, Contents: []protocol.McpResourceContent{}}
	for _, c := range contents {
		p := protocol.McpResourceContent{URI: c.URI, MimeType: c.MIMEType}
		switch {
		case len(c.Blob) == 0:
			p.Text, _ = capText(c.Text, MaxShownBytes)
		case strings.HasPrefix(c.MIMEType, "image/") && len(c.Blob) <= MaxShownBytes:
			p.Image = base64.StdEncoding.EncodeToString(c.Blob)
		default:
			p.Note = fmt.Sprintf("%s, %s of binary content: not shown", orUnknown(c.MIMEType), size(len(c.Blob)))
		}
		out.Contents = append(out.Contents, p)
	}
	return out, nil
}
