package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/internal/protocol"
)

// Resources and prompts of servers.
//
// A server's resources and prompts are listed (every page) once it is
// ready and again each time it says a list changed
// (notifications/resources/list_changed, prompts/list_changed). The
// composer's @ picker and "/" menu read these lists, never the server, so
// typing never waits on one. Reading a resource or getting a prompt asks
// the server, bounded by its call timeout.

// Resource is one resource a server lists.
type Resource = protocol.McpResource

// maxListed caps the resources, and the prompts, kept of one server.
const maxListed = 10_000

// ResourcePrefix starts a mention of a server's resource:
// mcp:<server>:<uri>.
const ResourcePrefix = "mcp:"

// lists reads the server's resources and prompts after attempt gen became
// ready (its tools are offered meanwhile; Wait waits for these too), until
// ctx (the attempt) ends.
func (s *server) lists(ctx context.Context, gen uint64) {
	s.refreshResources(ctx, gen)
	s.refreshPrompts(ctx, gen)
}

// capabilities are what the server said it offers (nil: not connected).
func capabilities(cs *sdk.ClientSession) *sdk.ServerCapabilities {
	if r := cs.InitializeResult(); r != nil {
		return r.Capabilities
	}
	return nil
}

// refreshResources lists the resources again; a failure keeps none (the
// picker then offers none of this server's).
func (s *server) refreshResources(ctx context.Context, gen uint64) {
	refreshList(s, ctx, gen, func(c *sdk.ServerCapabilities) bool { return c.Resources != nil },
		func(ctx context.Context, sess *sdk.ClientSession, cursor string) ([]*sdk.Resource, string, error) {
			res, err := sess.ListResources(ctx, &sdk.ListResourcesParams{Cursor: cursor})
			if err != nil {
				return nil, "", err
			}
			return res.Resources, res.NextCursor, nil
		},
		func(r *sdk.Resource) bool { return r == nil || r.URI == "" },
		func(list []*sdk.Resource) { s.resources = list })
}

// refreshList lists one kind of a server's entries again, when its
// capabilities (has) offer them, dropping the unusable ones (bad), and
// keeps the list (store, under s.mu) unless the server restarted or left
// ready meanwhile; one refresh at a time, the last one listed wins.
func refreshList[T any](s *server, ctx context.Context, gen uint64, has func(*sdk.ServerCapabilities) bool,
	page func(context.Context, *sdk.ClientSession, string) ([]T, string, error), bad func(T) bool, store func([]T)) {
	s.listMu.Lock()
	defer s.listMu.Unlock()
	sess := s.session()
	if sess == nil {
		return
	}
	var list []T
	if c := capabilities(sess); c != nil && has(c) {
		list = listPages(ctx, s.m.initTimeout(), func(ctx context.Context, cursor string) ([]T, string, error) {
			return page(ctx, sess, cursor)
		})
	}
	list = slices.DeleteFunc(list, bad)
	s.mu.Lock()
	if s.gen != gen || s.state != StateReady {
		s.mu.Unlock()
		return
	}
	store(list)
	s.mu.Unlock()
	s.m.changed()
}

// listPages lists every page fetch gives (at most maxListed items, 100
// pages), within timeout and ctx; a failing page ends the list (what came before
// it is kept).
func listPages[T any](ctx context.Context, timeout time.Duration, fetch func(ctx context.Context, cursor string) ([]T, string, error)) []T {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	var out []T
	cursor := ""
	for range 100 {
		page, next, err := fetch(ctx, cursor)
		if err != nil {
			break
		}
		out = append(out, page...)
		if next == "" || len(out) >= maxListed {
			break
		}
		cursor = next
	}
	if len(out) > maxListed {
		out = out[:maxListed]
	}
	return out
}

// resourceList is the server's resources as the picker lists them.
func (s *server) resourceList() []Resource {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != StateReady {
		return nil
	}
	out := make([]Resource, 0, len(s.resources))
	for _, r := range s.resources {
		if r == nil || r.URI == "" {
			continue
		}
		out = append(out, Resource{Server: s.name, URI: r.URI, Name: r.Name, Title: r.Title,
			Description: r.Description, MimeType: r.MIMEType, Size: r.Size})
	}
	return out
}

// Resources lists the resources of every ready server, by server then in
// the server's order.
func (m *Manager) Resources() []Resource {
	var out []Resource
	for _, s := range m.list() {
		out = append(out, s.resourceList()...)
	}
	return out
}

// ReadResource reads uri from server, bounded by the server's call timeout.
func (m *Manager) ReadResource(ctx context.Context, server, uri string) ([]*sdk.ResourceContents, error) {
	s, err := m.find(server)
	if err != nil {
		return nil, err
	}
	sess := s.current(ctx)
	if sess == nil {
		return nil, fmt.Errorf("MCP server %q is %s", server, s.status().State)
	}
	ctx, cancel := context.WithTimeout(ctx, s.config().CallTimeout())
	defer cancel()
	res, err := sess.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return nil, fmt.Errorf("MCP server %q did not answer reading %s within %s", server, uri, s.config().CallTimeout())
	case err != nil:
		return nil, fmt.Errorf("MCP server %q could not read %s: %w", server, uri, err)
	}
	return slices.DeleteFunc(res.Contents, func(c *sdk.ResourceContents) bool { return c == nil }), nil
}

// ResourceMention is the mention of server's resource uri.
func ResourceMention(server, uri string) string { return ResourcePrefix + server + ":" + uri }

// ParseMention splits a mention made by ResourceMention into the server
// (one of m's, the longest that fits: a server's name may hold ":") and
// the URI; ok is false when it names no server of m.
func (m *Manager) ParseMention(mention string) (server, uri string, ok bool) {
	rest, found := strings.CutPrefix(mention, ResourcePrefix)
	if !found {
		return "", "", false
	}
	for _, s := range m.list() {
		u, found := strings.CutPrefix(rest, s.name+":")
		if found && u != "" && len(s.name) > len(server) {
			server, uri, ok = s.name, u, true
		}
	}
	return server, uri, ok
}
