package cli

import (
	"context"
	"fmt"
	"io"

	"gatehouse/internal/mcp"
	"gatehouse/internal/termsafe"
)

// startMCP starts the user's MCP servers and those of files (never an
// untrusted workspace list: exec has no dialog to ask in), waits until each
// is ready or failed, so the turn's first request offers their tools. A
// failed server is reported on stderr; the turn runs without it.
func startMCP(ctx context.Context, configDir, workspace string, files []string, env func() []string, stderr io.Writer) (*mcp.Manager, error) {
	src, err := mcp.LoadSources(configDir, workspace, files, nil)
	if err != nil {
		return nil, err
	}
	m := mcp.NewManager(mcp.Options{Workspace: workspace, EnvFunc: env}, src.Entries)
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
			fmt.Fprintf(stderr, "gatehouse exec: MCP server %s failed, the turn runs without it: %s\n", termsafe.Line(s.Name), termsafe.Line(s.Error))
		}
	}
	return m, nil
}
