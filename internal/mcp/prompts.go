package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/internal/slash"
)

// A server's prompts are "/" entries named /<server>:<prompt> (both
// lower-cased to the letters "/" names allow). Running one gets the prompt
// with the arguments typed after the name (key=value, a value with spaces
// in double quotes) and sends its messages, as text, as the user's message.

// refreshPrompts lists the prompts again; a failure keeps none.
func (s *server) refreshPrompts(ctx context.Context, gen uint64) {
	refreshList(s, ctx, gen, func(c *sdk.ServerCapabilities) bool { return c.Prompts != nil },
		func(ctx context.Context, sess *sdk.ClientSession, cursor string) ([]*sdk.Prompt, string, error) {
			res, err := sess.ListPrompts(ctx, &sdk.ListPromptsParams{Cursor: cursor})
			if err != nil {
				return nil, "", err
			}
			return res.Prompts, res.NextCursor, nil
		},
		func(p *sdk.Prompt) bool { return p == nil || p.Name == "" },
		func(list []*sdk.Prompt) { s.prompts = list })
}

// promptName is the "/" name of a server's prompt.
func promptName(slug, prompt string) string {
	return strings.Trim(strings.ToLower(sanitize(slug)), "_-") + ":" + strings.ToLower(sanitize(prompt))
}

// Prompts are the prompts of every ready server as "/" entries (the
// registry's slash.Prompt source), with their arguments for the window's
// form; errs are the prompts whose names cannot be typed.
func (m *Manager) Prompts() ([]slash.Command, []error) {
	var out []slash.Command
	var errs []error
	for _, s := range m.list() {
		s.mu.Lock()
		ready, prompts, slug := s.state == StateReady, slices.Clone(s.prompts), s.slug
		s.mu.Unlock()
		if !ready {
			continue
		}
		for _, p := range prompts {
			name := promptName(slug, p.Name)
			if !slash.ValidName(name) {
				errs = append(errs, fmt.Errorf("MCP server %s: prompt %q has no name / can take", s.name, p.Name))
				continue
			}
			desc := p.Description
			if desc == "" {
				desc = p.Title
			}
			c := slash.Command{Name: name, Description: desc, Source: "MCP server " + s.name}
			for _, a := range p.Arguments {
				if a != nil && a.Name != "" {
					c.Arguments = append(c.Arguments, slash.Arg{Name: a.Name, Title: a.Title, Description: a.Description, Required: a.Required})
				}
			}
			srv, remote, args := s, p.Name, c.Arguments
			c.Expand = func(typed string) (string, error) {
				return srv.expand(remote, name, args, typed)
			}
			out = append(out, c)
		}
	}
	return out, errs
}

// expand gets prompt remote with the arguments typed after /name.
func (s *server) expand(remote, name string, want []slash.Arg, typed string) (string, error) {
	args, err := ParseArgs(typed)
	if err != nil {
		return "", fmt.Errorf("/%s: %w", name, err)
	}
	if err := checkArgs(name, want, args); err != nil {
		return "", err
	}
	timeout := s.config().CallTimeout()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	sess := s.current(ctx)
	if sess == nil {
		return "", fmt.Errorf("/%s: MCP server %q is %s", name, s.name, s.status().State)
	}
	res, err := sess.GetPrompt(ctx, &sdk.GetPromptParams{Name: remote, Arguments: args})
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return "", fmt.Errorf("/%s: MCP server %q did not answer within %s", name, s.name, timeout)
	case err != nil:
		return "", fmt.Errorf("/%s: MCP server %q: %w", name, s.name, err)
	}
	text := PromptText(res.Messages)
	if strings.TrimSpace(text) == "" {
		return "", fmt.Errorf("/%s: MCP server %q returned an empty prompt", name, s.name)
	}
	return text, nil
}

// checkArgs refuses an argument the prompt does not take and a required
// one missing, naming what the prompt takes.
func checkArgs(name string, want []slash.Arg, got map[string]string) error {
	takes := func() string {
		if len(want) == 0 {
			return "it takes no arguments"
		}
		var names []string
		for _, a := range want {
			n := a.Name
			if a.Required {
				n += " (required)"
			}
			names = append(names, n)
		}
		return "it takes " + strings.Join(names, ", ")
	}
	for k := range got {
		if !slices.ContainsFunc(want, func(a slash.Arg) bool { return a.Name == k }) {
			return fmt.Errorf("/%s has no argument %q: %s", name, k, takes())
		}
	}
	var missing []string
	for _, a := range want {
		if a.Required && strings.TrimSpace(got[a.Name]) == "" {
			missing = append(missing, a.Name)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("/%s needs %s: type /%s %s=…", name, strings.Join(missing, ", "), name, missing[0])
	}
	return nil
}

// PromptText is a prompt's messages as one user message: the text of each,
// an embedded resource's text in a <resource> element, and a line for
// what text cannot carry. When the prompt holds the assistant's messages
// too, each message starts with its role.
func PromptText(msgs []*sdk.PromptMessage) string {
	roles := false
	for _, m := range msgs {
		if m != nil && m.Role != "user" {
			roles = true
		}
	}
	var parts []string
	for _, m := range msgs {
		if m == nil || m.Content == nil {
			continue
		}
		var t string
		switch c := m.Content.(type) {
		case *sdk.TextContent:
			t = c.Text
		case *sdk.EmbeddedResource:
			if c.Resource != nil && len(c.Resource.Blob) == 0 {
				t = fmt.Sprintf("<resource uri=%q>\n%s\n</resource>", c.Resource.URI, c.Resource.Text)
			} else {
				t = embedded(c.Resource)
			}
		case *sdk.ResourceLink:
			t = "[resource link] " + c.URI
		case *sdk.ImageContent:
			t = fmt.Sprintf("[image: %s, %s; a prompt's pictures are not sent]", orUnknown(c.MIMEType), size(len(c.Data)))
		case *sdk.AudioContent:
			t = fmt.Sprintf("[audio: %s, %s; not sent]", orUnknown(c.MIMEType), size(len(c.Data)))
		default:
			continue
		}
		if roles {
			t = "[" + string(m.Role) + "]\n" + t
		}
		parts = append(parts, t)
	}
	return strings.Join(parts, "\n\n")
}

// ParseArgs reads the arguments typed after a prompt's name: key=value
// words separated by spaces, a value in double quotes when it holds spaces
// (\" and \\ inside them). A word without "=" or a key given twice is an
// error.
func ParseArgs(s string) (map[string]string, error) {
	out := map[string]string{}
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++
		}
		if i >= len(s) {
			return out, nil
		}
		eq := strings.IndexAny(s[i:], "= \t\n")
		if eq < 0 || s[i+eq] != '=' || eq == 0 {
			word, _, _ := strings.Cut(s[i:], " ")
			return nil, fmt.Errorf("%q is not key=value (a value with spaces goes in double quotes: key=\"a b\")", word)
		}
		key := s[i : i+eq]
		i += eq + 1
		var val strings.Builder
		if i < len(s) && s[i] == '"' {
			i++
			closed := false
			for i < len(s) {
				c := s[i]
				if c == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					val.WriteByte(s[i+1])
					i += 2
					continue
				}
				i++
				if c == '"' {
					closed = true
					break
				}
				val.WriteByte(c)
			}
			if !closed {
				return nil, fmt.Errorf("the value of %s has no closing quote", key)
			}
		} else {
			for i < len(s) && s[i] != ' ' && s[i] != '\t' && s[i] != '\n' {
				val.WriteByte(s[i])
				i++
			}
		}
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("%s is given twice", key)
		}
		out[key] = val.String()
	}
}

// QuoteArg is value as ParseArgs reads it back: bare when it can be, else
// in double quotes.
func QuoteArg(value string) string {
	if value != "" && !strings.ContainsAny(value, " \t\n\"\\") {
		return value
	}
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(value) + `"`
}

// ExpandTyped expands text typed as "/server:prompt key=value …" (exec's
// --prompt, an editor's message) when the name is one of m's prompts: the
// expansion, true. Other text is not a prompt (false); an error says why
// the prompt could not be expanded.
func (m *Manager) ExpandTyped(text string) (string, bool, error) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(text), "/")
	if !ok {
		return "", false, nil
	}
	name, args, _ := strings.Cut(rest, " ")
	entries, _ := m.Prompts()
	for _, e := range entries {
		if e.Name == name {
			out, err := e.Expand(strings.TrimSpace(args))
			return out, true, err
		}
	}
	return "", false, nil
}
