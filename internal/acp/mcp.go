package acp

import (
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
