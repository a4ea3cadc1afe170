package sessionhost

import (
	"context"
	"fmt"

	"gatehouse/internal/mcp"
	"gatehouse/internal/termsafe"
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
		return nil, fmt.Errorf("MCP servers: %w", err)
	}
	for _, st := range m.Statuses() {
		if st.State == mcp.StateFailed {
			h.o.Logger.Warn(fmt.Sprintf("MCP server %s failed, the session runs without it: %s",
				termsafe.Line(st.Name), termsafe.Line(st.Error)))
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
	// trusted it in the window (nil: never), confined as Confine says.
	Trust   *trust.Store
	Confine func(workspace string) mcp.Confinement
	// Env is the servers' environment (nil: this process's).
	Env     func() []string
	Version string
}

// StartServers starts the servers of spec and waits until each is ready or
// failed; it also returns the sources it read (Untrusted: a workspace list
// left out for want of trust; Refused: lists not read, with why). A list
// that does not read is an error matching ErrMCPConfig (no manager). When
// ctx ends first the error is ctx's and the manager, its servers still
// starting, is the caller's to close. With no servers the manager is empty.
func StartServers(ctx context.Context, spec ServerSpec) (*mcp.Manager, mcp.Sources, error) {
	src, err := mcp.LoadSources(spec.ConfigDir, spec.Workspace, spec.Files, spec.Trust)
	if err != nil {
		return nil, src, configError{err}
	}
	entries := mcp.Merge(src.Entries, spec.Extra)
	m := mcp.NewManager(mcp.Options{Workspace: spec.Workspace, EnvFunc: spec.Env, Version: spec.Version,
		Confine: spec.Confine}, entries)
	if len(entries) == 0 {
		return m, src, nil
	}
	m.Start()
	return m, src, m.Wait(ctx)
}

// configError is a server list that does not read; it says only that.
type configError struct{ err error }

func (e configError) Error() string        { return e.err.Error() }
func (e configError) Unwrap() error        { return e.err }
func (e configError) Is(target error) bool { return target == ErrMCPConfig }
