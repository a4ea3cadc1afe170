package mcp

import (
	"context"
	"errors"
	"path/filepath"

	"gatehouse/internal/images"
	"gatehouse/internal/protocol"
	"gatehouse/internal/slash"
)

// The window's side of resources and prompts: what a tab on workspace is
// offered. The user's servers serve every tab; a workspace's own servers
// only the tabs of that workspace.

// serves says whether server s of the host's manager serves a tab on
// workspace.
func (h *Host) serves(st Status, workspace string) bool {
	if !fromWorkspace(st.Source) {
		return true
	}
	h.mu.Lock()
	ws := h.workspace
	h.mu.Unlock()
	return ws != "" && filepath.Clean(ws) == filepath.Clean(workspace)
}

// served is the host's manager and the names of its servers that serve a
// tab on workspace.
func (h *Host) served(workspace string) (*Manager, map[string]bool) {
	m := h.manager()
	if m == nil {
		return nil, nil
	}
	names := map[string]bool{}
	for _, st := range m.Statuses() {
		if h.serves(st, workspace) {
			names[st.Name] = true
		}
	}
	return m, names
}

// Resources lists the resources a tab on workspace may mention.
func (h *Host) Resources(workspace string) []Resource {
	m, names := h.served(workspace)
	if m == nil {
		return nil
	}
	var out []Resource
	for _, r := range m.Resources() {
		if names[r.Server] {
			out = append(out, r)
		}
	}
	return out
}

// Prompts are the "/" entries of the prompts a tab on workspace is offered.
func (h *Host) Prompts(workspace string) ([]slash.Command, []error) {
	m, names := h.served(workspace)
	if m == nil {
		return nil, nil
	}
	return m.prompts(func(server string) bool { return names[server] })
}

var errNotServed = errors.New("no MCP server of this tab offers it")

// MentionText is Manager.MentionText for a tab on workspace.
func (h *Host) MentionText(ctx context.Context, workspace, mention string, keep Keep) (string, []images.Image, error) {
	m, names := h.served(workspace)
	if m == nil {
		return "", nil, errNotServed
	}
	if s, _, ok := m.ParseMention(mention); !ok || !names[s] {
		return "", nil, errNotServed
	}
	return m.MentionText(ctx, mention, keep)
}

// OpenResource is Manager.Open for a tab on workspace.
func (h *Host) OpenResource(ctx context.Context, workspace, server, uri string) (protocol.McpResourceRead, error) {
	m, names := h.served(workspace)
	if m == nil || !names[server] {
		return protocol.McpResourceRead{}, errNotServed
	}
	return m.Open(ctx, server, uri)
}
