package gui

import (
	"gatehouse/internal/mcp"
	"gatehouse/internal/protocol"
)

// The MCP servers panel's bound methods: thin translations to mcp.Host,
// which holds the open workspace's servers. Servers start after the page's
// first frame (Ready) and never block the chat.

// mcpHost is the window's shared servers (the recipe's).
func (a *App) mcpHost() *mcp.Host { return a.kit.MCP() }

// mcpOpen loads the servers of the workspace; they start at once when the
// first frame is already drawn, else at Ready.
func (a *App) mcpOpen(dir string) {
	if err := a.mcpHost().Open(dir); err != nil {
		a.log.Warn("MCP server lists", "err", err)
	}
	if a.drawn.Load() {
		a.mcpHost().Start()
	}
}

// mcpShow makes the panel show the servers of the shown tab's workspace
// (each tab's session has its own workspace's servers).
func (a *App) mcpShow() {
	if dir := a.workspaceRoot(); dir != "" {
		a.mcpHost().Show(dir)
	}
}

// mcpReady starts the servers once the first frame is drawn.
func (a *App) mcpReady() {
	a.drawn.Store(true)
	a.mcpHost().Start()
}

// McpPanel is the servers panel's list.
type McpPanel struct {
	Servers   []protocol.McpServer   `json:"servers"`
	Untrusted *protocol.McpUntrusted `json:"untrusted,omitempty"`
	Problem   string                 `json:"problem,omitempty"`
	// AllowList: the network is the allow-list (a browser server is
	// offered the app's proxy).
	AllowList bool `json:"allowList,omitempty"`
	// ClaudeImport: Claude Desktop's config exists to import from.
	ClaudeImport bool `json:"claudeImport"`
}

// McpList returns the servers of the shown tab's workspace.
func (a *App) McpList() McpPanel {
	p := a.mcpHost().List()
	return McpPanel{Servers: p.Servers, Untrusted: p.Untrusted, Problem: p.Problem, AllowList: p.AllowList,
		ClaudeImport: a.mcpHost().ClaudeImportAvailable()}
}

// McpRestart stops a server (its whole process group) and starts it again.
func (a *App) McpRestart(name string) error { return a.mcpHost().Restart(name) }

// McpSetDisabled disables (stopping it) or enables a server.
func (a *App) McpSetDisabled(name string, disabled bool) error {
	return a.mcpHost().SetDisabled(name, disabled)
}

// McpSetToolEnabled offers one of a server's tools to the model, or not.
func (a *App) McpSetToolEnabled(name, tool string, on bool) error {
	return a.mcpHost().SetToolEnabled(name, tool, on)
}

// McpSetAppProxy starts a browser server with the app's filtering proxy
// (its pages held to the allow-list), or without it.
func (a *App) McpSetAppProxy(name string, on bool) error { return a.mcpHost().SetAppProxy(name, on) }

// McpServerForm is a server's configuration for the edit form.
type McpServerForm struct {
	Config   mcp.ServerConfig `json:"config"`
	Editable bool             `json:"editable"`
}

// McpServerConfig returns a server's configuration, secrets masked.
func (a *App) McpServerConfig(name string) (McpServerForm, error) {
	c, editable, err := a.mcpHost().ServerConfig(name)
	return McpServerForm{Config: c, Editable: editable}, err
}

// McpPutServer adds a server to the user's list or replaces one.
func (a *App) McpPutServer(oldName, name string, cfg mcp.ServerConfig) error {
	return a.mcpHost().PutServer(oldName, name, cfg)
}

// McpRemoveServer removes a server from the user's list.
func (a *App) McpRemoveServer(name string) error { return a.mcpHost().RemoveServer(name) }

// McpRawConfig is the user's list as JSON, secrets masked.
func (a *App) McpRawConfig() (string, error) { return a.mcpHost().RawConfig() }

// McpSaveRawConfig replaces the user's list; bad JSON changes nothing.
func (a *App) McpSaveRawConfig(text string) error { return a.mcpHost().SaveRawConfig(text) }

// McpTrustWorkspace trusts the workspace's .gatehouse/mcp.json as shown.
func (a *App) McpTrustWorkspace() error { return a.mcpHost().TrustWorkspace() }

// McpImportClaude imports Claude Desktop's servers the user does not have.
func (a *App) McpImportClaude() ([]string, error) { return a.mcpHost().ImportClaude() }
