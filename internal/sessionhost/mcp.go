package sessionhost

import (
	"context"
	"fmt"

	"gatehouse/internal/mcp"
	"gatehouse/internal/trust"
)

// startServers starts the session's own MCP servers: the user's list, the
// files and servers the spec adds over it (never an untrusted workspace
// list: these hosts have no dialog to ask in), and waits until each is
// ready or failed, so the first request offers their tools. A failed
// server is logged; the session runs without it.
func (h *Host) startServers(spec Spec, root string) (*mcp.Manager, error) {
	ctx := spec.MCPWait
	if ctx == nil {
		ctx = context.Background()
	}
	m, _, err := StartServers(ctx, ServerSpec{ConfigDir: h.env.ConfigDir, Workspace: root, Files: spec.MCPFiles,
		Extra: spec.MCPServers, Env: h.env.ProcEnv, Version: h.env.Version})
	if err != nil {
		if m != nil {
			m.Close()
		}
		return nil, err
	}
	for _, st := range m.Statuses() {
		if st.State == mcp.StateFailed {
			h.o.Logger.Warn(fmt.Sprintf("MCP server %s failed, the session runs without it: %s", st.Name, st.Error))
		}
	}
	return m, nil
}

// ServerSpec is a set of MCP servers to start outside a window.
type ServerSpec struct {
	ConfigDir, Workspace string
	// Files are mcpServers files over the user's list; Extra over both.
	Files []string
	Extra []mcp.Entry
	// Trust, when set, starts the workspace's own list once the user
	// trusted it in the window (nil: never).
	Trust *trust.Store
	// Env is the servers' environment (nil: this process's).
	Env     func() []string
	Version string
}

// StartServers starts the servers of spec and waits until each is ready or
// failed; it also returns the workspace list left out for want of trust
// (nil: none). A list that does not read is an ErrMCPConfig error (no
// manager). When ctx ends first the error is ctx's and the manager, its
// servers still starting, is the caller's to close. With no servers the
// manager is empty.
func StartServers(ctx context.Context, spec ServerSpec) (*mcp.Manager, *mcp.Untrusted, error) {
	src, err := mcp.LoadSources(spec.ConfigDir, spec.Workspace, spec.Files, spec.Trust)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: %w", ErrMCPConfig, err)
	}
	entries := mcp.Merge(src.Entries, spec.Extra)
	m := mcp.NewManager(mcp.Options{Workspace: spec.Workspace, EnvFunc: spec.Env, Version: spec.Version}, entries)
	if len(entries) == 0 {
		return m, src.Untrusted, nil
	}
	m.Start()
	return m, src.Untrusted, m.Wait(ctx)
}
