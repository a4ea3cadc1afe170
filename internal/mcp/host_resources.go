package mcp

import (
	"context"
	"errors"

	"gatehouse/internal/images"
	"gatehouse/internal/protocol"
	"gatehouse/internal/slash"
)

// The window's side of resources and prompts: what a tab on workspace is
// offered, from that workspace's own manager (spaces.go), so a workspace's
// own servers serve its tabs only.

// managerOf is the manager of workspace's servers (nil: not open).
func (h *Host) managerOf(workspace string) *Manager {
	h.sp.mu.Lock()
	defer h.sp.mu.Unlock()
	if sp := h.sp.byDir[workspace]; sp != nil {
		return sp.m
	}
	return nil
}

// Resources lists the resources a tab on workspace may mention.
func (h *Host) Resources(workspace string) []Resource {
	if m := h.managerOf(workspace); m != nil {
		return m.Resources()
	}
	return nil
}

// Prompts are the "/" entries of the prompts a tab on workspace is offered.
func (h *Host) Prompts(workspace string) ([]slash.Command, []error) {
	if m := h.managerOf(workspace); m != nil {
		return m.Prompts()
	}
	return nil, nil
}

var errNotServed = errors.New("no MCP server of this tab's workspace offers it")

// MentionText is Manager.MentionText for a tab on workspace.
func (h *Host) MentionText(ctx context.Context, workspace, mention string, keep Keep) (string, []images.Image, error) {
	m := h.managerOf(workspace)
	if m == nil {
		return "", nil, errNotServed
	}
	return m.MentionText(ctx, mention, keep)
}

// OpenResource is Manager.Open for a tab on workspace.
func (h *Host) OpenResource(ctx context.Context, workspace, server, uri string) (protocol.McpResourceRead, error) {
	m := h.managerOf(workspace)
	if m == nil {
		return protocol.McpResourceRead{}, errNotServed
	}
	return m.Open(ctx, server, uri)
}
