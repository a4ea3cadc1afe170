package cli

import (
	"context"
	"fmt"
	"io"

	"gatehouse/internal/mcp"
	"gatehouse/internal/tools"
)

// startMCP starts the user's MCP servers and those of files (never an
// untrusted workspace list: exec has no dialog to ask in), waits until each
// is ready or failed, and registers the ready servers' tools in reg. A
// failed server is reported on stderr; the turn runs without it.
func startMCP(ctx context.Context, configDir, workspace string, files []string, env []string, reg *tools.Registry, stderr io.Writer) (*mcp.Manager, error) {
	src, err := mcp.LoadSources(configDir, workspace, files, nil)
	if err != nil {
		return nil, err
	}
	m := mcp.NewManager(mcp.Options{Workspace: workspace, Env: env}, src.Entries)
	if len(src.Entries) == 0 {
		return m, nil
	}
	m.Start()
	if err := m.Wait(ctx); err != nil {
		m.Close()
		return nil, err
	}
	for _, s := range m.Statuses() {
		if s.State == mcp.StateFailed {
			fmt.Fprintf(stderr, "gatehouse exec: MCP server %s failed, the turn runs without it: %s\n", s.Name, s.Error)
		}
	}
	for _, p := range m.Providers() {
		for _, t := range p.Tools() {
			if err := reg.Register(t); err != nil {
				m.Close()
				return nil, fmt.Errorf("%s: %w", p.Name(), err)
			}
		}
	}
	return m, nil
}
