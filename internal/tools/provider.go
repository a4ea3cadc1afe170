package tools

// Provider supplies tools that join a session's tool surface at run time: an
// MCP server's tools, the delegate/subagent tools of agent definitions, tools
// a Go caller registers. Each tool comes with its executor, so a tool the
// model sees always runs.
//
// Contract:
//   - Name names the provider in errors and in the UI ("mcp server github",
//     "agents"); it is stable for the provider's life.
//   - Tools returns the provider's current tools. It is called before every
//     model request and when a call is routed, so it must be cheap, must not
//     block on I/O, and must be safe for concurrent use. A provider whose list
//     changes (a server restarted with new tools) simply returns the new list;
//     the surface notices on its next read.
//   - Tool names must be unique across the whole surface; the surface, not
//     the provider, decides what a clash means (an error naming both sources
//     at add time; the clashing tool left out, and reported, after a
//     refresh). See Surface; a session's surface is reached through
//     runtime.Session's AddProvider, RemoveProvider and ProviderErrors.
//   - The session's policy filters the provider's tools like the built-ins:
//     a tool the policy does not allow is neither offered nor runnable.
type Provider interface {
	Name() string
	Tools() []Tool
}
