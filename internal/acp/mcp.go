package acp

import (
	"context"

	sdk "github.com/coder/acp-go-sdk"

	"gatehouse/internal/mcp"
)

// editorSource is the Source of the MCP servers an editor passes in
// session/new or session/load.
const editorSource = "the editor"

// editorServers are the editor's mcpServers as MCP entries: stdio and HTTP
// servers; SSE servers (not offered in initialize) are refused.
func editorServers(list []sdk.McpServer) ([]mcp.Entry, error) {
	var out []mcp.Entry
	for _, s := range list {
		var e mcp.Entry
		switch {
		case s.Stdio != nil:
			env := map[string]string{}
			for _, v := range s.Stdio.Env {
				env[v.Name] = v.Value
			}
			e = mcp.Entry{Name: s.Stdio.Name, Config: mcp.ServerConfig{Command: s.Stdio.Command, Args: s.Stdio.Args, Env: env}}
		case s.Http != nil:
			headers := map[string]string{}
			for _, h := range s.Http.Headers {
				headers[h.Name] = h.Value
			}
			e = mcp.Entry{Name: s.Http.Name, Config: mcp.ServerConfig{URL: s.Http.Url, Headers: headers}}
		case s.Sse != nil:
			return nil, invalidParams("MCP server %q: SSE servers are not supported (use stdio or http)", s.Sse.Name)
		default:
			return nil, invalidParams("an MCP server of an unknown kind")
		}
		if err := e.Config.Validate(); err != nil {
			return nil, invalidParams("MCP server %q: %v", e.Name, err)
		}
		e.Source = editorSource
		out = append(out, e)
	}
	return out, nil
}

// startServers starts the MCP servers of a session in root, as exec does
// (the user's list, never an untrusted workspace list) with the editor's
// servers over them, and waits until each is ready or failed, so the first
// prompt is offered their tools. A failed server is logged; the session
// runs without it. nil when there are none.
func (a *Agent) startServers(ctx context.Context, root string, list []sdk.McpServer) (*mcp.Manager, error) {
	editor, err := editorServers(list)
	if err != nil {
		return nil, err
	}
	src, err := mcp.LoadSources(a.o.ConfigDir, root, nil, nil)
	if err != nil {
		return nil, invalidParams("MCP servers: %v", err)
	}
	entries := mcp.Merge(src.Entries, editor)
	if len(entries) == 0 {
		return nil, nil
	}
	m := mcp.NewManager(mcp.Options{Workspace: root, EnvFunc: a.o.ProcEnv, Version: a.o.Version}, entries)
	m.Start()
	if err := m.Wait(ctx); err != nil {
		m.Close()
		return nil, err
	}
	for _, st := range m.Statuses() {
		if st.State == mcp.StateFailed {
			a.o.Logger.Warn("MCP server failed, the session runs without it", "server", st.Name, "err", st.Error)
		}
	}
	return m, nil
}
