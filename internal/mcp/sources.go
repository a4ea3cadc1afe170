package mcp

import (
	"fmt"
	"os"
	"path/filepath"

	"gatehouse/internal/protocol"
	"gatehouse/internal/trust"
)

// WorkspaceConfig is where a workspace keeps its servers.
const WorkspaceConfig = ".gatehouse/mcp.json"

// UserConfigPath is the user's server list in Gatehouse's config folder.
func UserConfigPath(configDir string) string { return filepath.Join(configDir, ConfigFile) }

// ClaudeDesktopConfigPath is Claude Desktop's config file, which holds an
// mcpServers list Gatehouse can import.
func ClaudeDesktopConfigPath() (string, error) {
	base, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "Claude", "claude_desktop_config.json"), nil
}

// Import adds to user the servers of from whose names user does not have
// yet, and returns the names added.
func Import(user, from Config) (Config, []string) {
	out := Config{Servers: map[string]ServerConfig{}}
	for k, v := range user.Servers {
		out.Servers[k] = v
	}
	var added []string
	for _, e := range from.Entries("") {
		if _, ok := out.Servers[e.Name]; !ok {
			out.Servers[e.Name] = e.Config
			added = append(added, e.Name)
		}
	}
	return out, added
}

// Untrusted is a workspace server list the user has not trusted (in this
// content): nothing of it starts until they do.
type Untrusted struct {
	Folder  string
	Content trust.Content
	Config  Config
	// Lines are what the trust dialog lists: each server's command line or
	// URL and its variables, secrets masked (TrustLines); Servers the same
	// in detail.
	Lines   []string
	Servers []protocol.McpTrustServer
}

// Sources are the server lists a session loads.
type Sources struct {
	// Entries are the servers to run: the user's, then files given on the
	// command line, then the workspace's when trusted; a later one with the
	// same name wins.
	Entries []Entry
	// Untrusted is set when the workspace has a server list the user has
	// not trusted in its current content.
	Untrusted *Untrusted
	// Refused says why the workspace's list was not read (a symbolic
	// link, a FIFO, too large).
	Refused []trust.Refused
}

// LoadSources reads the user's list from configDir, each of files, and the
// workspace's .gatehouse/mcp.json when ts says the user trusts it (ts nil:
// the workspace list is never loaded, as for `exec`).
func LoadSources(configDir, workspace string, files []string, ts *trust.Store) (Sources, error) {
	var lists [][]Entry
	userPath := UserConfigPath(configDir)
	user, err := LoadFile(userPath)
	if err != nil {
		return Sources{}, err
	}
	lists = append(lists, user.Entries(userPath))
	for _, f := range files {
		if _, err := os.Stat(f); err != nil {
			return Sources{}, err
		}
		c, err := LoadFile(f)
		if err != nil {
			return Sources{}, err
		}
		lists = append(lists, c.Entries(f))
	}
	var out Sources
	if workspace != "" && ts != nil {
		// Read once, through the boundary: the bytes hashed for trust are
		// the bytes parsed; a link or a FIFO is refused, not followed.
		content, err := trust.Read(workspace, trust.KindMCP)
		if err != nil {
			return Sources{}, err
		}
		out.Refused = content.Refused
		if !content.Empty() {
			c, err := Parse(content.Data[WorkspaceConfig])
			if err != nil {
				return Sources{}, fmt.Errorf("%s: %w", WorkspaceConfig, err)
			}
			ok, err := ts.Trusted(workspace, trust.KindMCP, content)
			if err != nil {
				return Sources{}, err
			}
			if ok {
				lists = append(lists, c.Entries(WorkspaceConfig))
			} else {
				out.Untrusted = &Untrusted{Folder: workspace, Content: content, Config: c, Lines: TrustLines(c), Servers: TrustServers(c)}
			}
		}
	}
	out.Entries = Merge(lists...)
	return out, nil
}
