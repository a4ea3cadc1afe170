package protocol

// McpState is where an MCP server is in its life.
type McpState string

const (
	McpStarting McpState = "starting"
	McpReady    McpState = "ready"
	McpFailed   McpState = "failed"
	McpDisabled McpState = "disabled"
	McpStopped  McpState = "stopped"
)

// EnumValues lists the values, for the TypeScript generator.
func (McpState) EnumValues() []string {
	return []string{string(McpStarting), string(McpReady), string(McpFailed), string(McpDisabled), string(McpStopped)}
}

// McpTool is one tool of an MCP server.
type McpTool struct {
	// Name is the tool's name on the server; SurfaceName is what the model
	// sees (mcp__<server>__<tool>).
	Name         string `json:"name"`
	SurfaceName  string `json:"surfaceName"`
	Description  string `json:"description,omitempty"`
	ReadOnlyHint bool   `json:"readOnlyHint,omitempty"`
	// Enabled is false when the user switched the tool off.
	Enabled bool `json:"enabled"`
}

// McpServer is an MCP server as the servers panel shows it.
type McpServer struct {
	Name string `json:"name"`
	// Source is the file the server's configuration came from.
	Source string   `json:"source"`
	State  McpState `json:"state"`
	// Error says why the server failed; Stderr holds its last stderr lines.
	Error  string    `json:"error,omitempty"`
	Stderr string    `json:"stderr,omitempty"`
	Tools  []McpTool `json:"tools,omitempty"`
	Remote bool      `json:"remote,omitempty"`
	// Target is the command line, or the URL with secrets masked.
	Target string `json:"target"`
	// NeedsOAuth: the server asked for sign-in (401); OAuth-only servers are
	// not supported.
	NeedsOAuth         bool `json:"needsOAuth,omitempty"`
	TrustReadOnlyHints bool `json:"trustReadOnlyHints,omitempty"`
	// Unconfined: a program of the user's own list, which runs outside
	// the sandbox and past the network allow-list (a workspace's servers
	// run confined).
	Unconfined bool `json:"unconfined,omitempty"`
	// Browser: a server known to drive a web browser (@playwright/mcp),
	// which can start with the app's proxy; AppProxy: it does.
	Browser  bool `json:"browser,omitempty"`
	AppProxy bool `json:"appProxy,omitempty"`
}

// McpUntrusted is a workspace's server list the user has not trusted yet
// (in its current content): the trust dialog lists Lines, each server's
// command line or URL with secrets masked.
type McpUntrusted struct {
	File  string   `json:"file"`
	Lines []string `json:"lines"`
	// Servers are the same servers in detail: every env value shown but
	// those whose names mark them as secrets, the ones that load code
	// flagged, and whether the file asks to trust read-only hints.
	Servers []McpTrustServer `json:"servers,omitempty"`
}

// McpTrustServer is one server of a workspace's list as the trust prompt
// shows it.
type McpTrustServer struct {
	Name string `json:"name"`
	// Line is "runs <command line>" or "connects to <url>".
	Line string        `json:"line"`
	Env  []McpTrustEnv `json:"env,omitempty"`
	// TrustReadOnlyHints: the file asks that tools the server marks
	// read-only run without asking in safe mode.
	TrustReadOnlyHints bool `json:"trustReadOnlyHints,omitempty"`
}

// McpTrustEnv is one environment variable (or header) a server gets.
type McpTrustEnv struct {
	Name string `json:"name"`
	// Value is shown unless Secret (then it is masked).
	Value  string `json:"value"`
	Secret bool   `json:"secret,omitempty"`
	// LoadsCode: the variable makes the program load code
	// (NODE_OPTIONS, LD_PRELOAD, PYTHONPATH...).
	LoadsCode bool `json:"loadsCode,omitempty"`
	// Header: an HTTP header, not an environment variable.
	Header bool `json:"header,omitempty"`
}

// McpWaitingPayload: a turn's model request goes without the tools of
// servers still starting (a transcript item: the next request after they
// are ready has them, and the model is told so).
type McpWaitingPayload struct {
	Servers []string `json:"servers"`
}

// McpUpdatedPayload: a server's state or tools changed (an app-level event:
// no session, no turn). Servers is the whole list, sorted by name.
type McpUpdatedPayload struct {
	Servers   []McpServer   `json:"servers"`
	Untrusted *McpUntrusted `json:"untrusted,omitempty"`
	// Problem says why a server list could not be read (its servers are
	// not running until it is fixed).
	Problem string `json:"problem,omitempty"`
	// AllowList: the network setting is the allow-list, so a browser
	// server is offered to start with the app's proxy.
	AllowList bool `json:"allowList,omitempty"`
}
