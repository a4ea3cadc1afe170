package gui

import (
	"context"
	"sort"
	"strings"

	"gatehouse/internal/images"
	"gatehouse/internal/mcp"
	"gatehouse/internal/mention"
	"gatehouse/internal/protocol"
)

// MCP servers' resources in the composer: a source of @ candidates beside
// the workspace's files (the file index is not involved), what a mentioned
// resource attaches, and a resource opened from a tool card.

// maxResourceCandidates caps the resources one @ query lists.
const maxResourceCandidates = 10

// resourceCandidates are the resources of the shown tab's servers matching
// query (its name, title, URI or server), best first, labelled with the
// server.
func (a *App) resourceCandidates(query string) []MentionCandidate {
	h := a.mcpHost()
	if h == nil {
		return nil
	}
	type hit struct {
		r mcp.Resource
		s int
	}
	var hits []hit
	for _, r := range h.Resources(a.workspaceRoot()) {
		best, ok := 0, false
		for _, c := range []string{r.Name, r.Title, r.URI, r.Server + ":" + r.Name} {
			if c == "" {
				continue
			}
			if s, m := mention.Match(c, query); m && (!ok || s < best) {
				best, ok = s, true
			}
		}
		if ok {
			hits = append(hits, hit{r, best})
		}
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].s < hits[j].s })
	if len(hits) > maxResourceCandidates {
		hits = hits[:maxResourceCandidates]
	}
	out := make([]MentionCandidate, 0, len(hits))
	for _, h := range hits {
		name := h.r.Title
		if name == "" {
			name = h.r.Name
		}
		if name == "" {
			name = h.r.URI
		}
		out = append(out, MentionCandidate{Mention: mcp.ResourceMention(h.r.Server, h.r.URI),
			Label: name + " — " + h.r.Server, Server: h.r.Server, Detail: h.r.URI})
	}
	return out
}

// mentionedResource reads a mentioned resource for the message; a picture
// joins pics when the model in effect sees, else it is a line.
func (a *App) mentionedResource(pics *[]images.Image) mention.Resources {
	return func(ctx context.Context, m string) (string, error) {
		h := a.mcpHost()
		if h == nil {
			return "", errNoSession
		}
		var keep mcp.Keep
		at := a.attacher()
		if at.Check(ctx) == nil {
			keep = func(name string, data []byte) (images.Image, error) { return at.AddBytes(ctx, name, data) }
		}
		text, ims, err := h.MentionText(ctx, a.workspaceRoot(), m, keep)
		*pics = append(*pics, ims...)
		return text, err
	}
}

// McpReadResource reads a server's resource for the window (a tool card's
// resource link): its text, a picture, or what is not shown.
func (a *App) McpReadResource(server, uri string) (protocol.McpResourceRead, error) {
	h := a.mcpHost()
	if h == nil {
		return protocol.McpResourceRead{}, errNoSession
	}
	return h.OpenResource(context.Background(), a.workspaceRoot(), server, strings.TrimSpace(uri))
}
