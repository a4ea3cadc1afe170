// Package mcp is Gatehouse's MCP client: the user's servers (stdio programs
// and streamable HTTP endpoints), their configuration in the mcpServers JSON
// users already have, and each server's tools as a tools.Provider that joins
// the session's tool surface behind the same approval gate as every tool.
package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"gatehouse/internal/trust"
)

// ConfigFile is the user's server list in Gatehouse's config folder, and the
// name of a workspace's list under .gatehouse/.
const ConfigFile = "mcp.json"

// DefaultCallTimeout bounds one tool call unless the server says otherwise.
const DefaultCallTimeout = 120 * time.Second

// ServerConfig is one entry of mcpServers, in the format of Claude Desktop
// and Cursor (command, args, env, url, headers), plus Gatehouse's own keys.
type ServerConfig struct {
	Command string            `json:"command,omitempty"`
	Args    []string          `json:"args,omitempty"`
	Env     map[string]string `json:"env,omitempty"`
	URL     string            `json:"url,omitempty"`
	Headers map[string]string `json:"headers,omitempty"`
	// Type is "stdio", "http" or "streamable-http" when a file says it; it
	// is not needed (url or command decides).
	Type     string `json:"type,omitempty"`
	Disabled bool   `json:"disabled,omitempty"`
	// TrustReadOnlyHints: the user believes this server's readOnlyHint
	// annotations, so safe mode runs those tools without asking.
	TrustReadOnlyHints bool `json:"trustReadOnlyHints,omitempty"`
	// TimeoutSeconds bounds each call (0: DefaultCallTimeout).
	TimeoutSeconds int `json:"timeoutSeconds,omitempty"`
	// AppProxy starts a browser server (Browser) with the app's filtering
	// proxy, --proxy-server, so the pages it opens are held to the network
	// allow-list (browser.go).
	AppProxy bool `json:"appProxy,omitempty"`
	// DisabledTools are the server's tool names (as the server names them)
	// the user switched off: the model does not see them.
	DisabledTools []string `json:"disabledTools,omitempty"`
}

// Remote reports whether the server is reached over HTTP.
func (c ServerConfig) Remote() bool { return c.URL != "" }

// CallTimeout is the per-call timeout.
func (c ServerConfig) CallTimeout() time.Duration {
	if c.TimeoutSeconds > 0 {
		return time.Duration(c.TimeoutSeconds) * time.Second
	}
	return DefaultCallTimeout
}

// Validate says what is wrong with the entry, in words a user can act on.
func (c ServerConfig) Validate() error {
	switch {
	case c.Command == "" && c.URL == "":
		return errors.New("needs either a command (a program to start) or a url")
	case c.Command != "" && c.URL != "":
		return errors.New("has both a command and a url: keep one")
	case c.URL != "":
		u, err := url.Parse(c.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("url %q is not an http(s) address", c.URL)
		}
		if len(c.Args) > 0 || len(c.Env) > 0 {
			return errors.New("args and env apply to a command, not to a url")
		}
	default:
		if len(c.Headers) > 0 {
			return errors.New("headers apply to a url, not to a command")
		}
	}
	if c.TimeoutSeconds < 0 {
		return errors.New("timeoutSeconds must not be negative")
	}
	for k := range c.Env {
		if k == "" || strings.ContainsAny(k, "=\x00") {
			return fmt.Errorf("env name %q is not a variable name", k)
		}
	}
	return nil
}

// Config is a parsed mcpServers file.
type Config struct {
	Servers map[string]ServerConfig
}

type fileShape struct {
	MCPServers map[string]ServerConfig `json:"mcpServers"`
}

// Parse reads mcpServers JSON. A file with no mcpServers key is refused (it
// is likely not a server list); an entry that does not validate is an error
// naming it.
func Parse(data []byte) (Config, error) {
	var probe map[string]json.RawMessage
	if err := json.Unmarshal(data, &probe); err != nil {
		return Config{}, fmt.Errorf("not JSON: %w", err)
	}
	if _, ok := probe["mcpServers"]; !ok {
		return Config{}, errors.New(`no "mcpServers" object: expected {"mcpServers": {"name": {"command": …}}}`)
	}
	var f fileShape
	if err := json.Unmarshal(data, &f); err != nil {
		return Config{}, fmt.Errorf("mcpServers: %w", err)
	}
	if f.MCPServers == nil {
		f.MCPServers = map[string]ServerConfig{}
	}
	for _, name := range slices.Sorted(maps.Keys(f.MCPServers)) {
		if strings.TrimSpace(name) == "" {
			return Config{}, errors.New("a server has an empty name")
		}
		if err := f.MCPServers[name].Validate(); err != nil {
			return Config{}, fmt.Errorf("server %q %w", name, err)
		}
	}
	return Config{Servers: f.MCPServers}, nil
}

// Marshal writes c as indented mcpServers JSON.
func (c Config) Marshal() []byte {
	s := c.Servers
	if s == nil {
		s = map[string]ServerConfig{}
	}
	b, _ := json.MarshalIndent(fileShape{MCPServers: s}, "", "  ") // plain data: cannot fail
	return append(b, '\n')
}

// LoadFile reads the file at path; a missing file is an empty config.
func LoadFile(path string) (Config, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return Config{Servers: map[string]ServerConfig{}}, nil
	}
	if err != nil {
		return Config{}, err
	}
	c, err := Parse(b)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}

// Save writes c to path atomically with mode 0600 (env values and headers
// hold secrets) in a folder only the user can enter.
func Save(path string, c Config) error {
	for name, s := range c.Servers {
		if err := s.Validate(); err != nil {
			return fmt.Errorf("server %q %w", name, err)
		}
	}
	return trust.WritePrivate(path, c.Marshal())
}

// Mask is how a secret is shown.
const Mask = "••••••"

// Masked returns c with every env value and header value replaced by Mask
// (the names stay: they say what is configured), and a URL's userinfo and
// query values masked.
func (c ServerConfig) Masked() ServerConfig {
	out := c
	out.Env = maskValues(c.Env)
	out.Headers = maskValues(c.Headers)
	out.URL = maskURL(c.URL)
	out.Args = slices.Clone(c.Args)
	out.DisabledTools = slices.Clone(c.DisabledTools)
	return out
}

func maskValues(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k := range m {
		out[k] = Mask
	}
	return out
}

func maskURL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return Mask
	}
	if u.User != nil {
		u.User = url.User(Mask)
	}
	if q := u.Query(); len(q) > 0 {
		for k := range q {
			q.Set(k, Mask)
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// Unmask returns edited with every value equal to Mask replaced by the
// value of the same key in old: a form that showed masked secrets and saved
// them unchanged keeps the real values.
func Unmask(edited, old ServerConfig) ServerConfig {
	out := edited
	out.Env = unmaskValues(edited.Env, old.Env)
	out.Headers = unmaskValues(edited.Headers, old.Headers)
	if edited.URL == maskURL(old.URL) {
		out.URL = old.URL
	}
	return out
}

func unmaskValues(edited, old map[string]string) map[string]string {
	if edited == nil {
		return nil
	}
	out := make(map[string]string, len(edited))
	for k, v := range edited {
		if v == Mask {
			v = old[k]
		}
		out[k] = v
	}
	return out
}

// CommandLine is the command and its arguments as one line for display,
// each word quoted when it needs it.
func (c ServerConfig) CommandLine() string {
	if c.Remote() {
		return maskURL(c.URL)
	}
	words := append([]string{c.Command}, c.Args...)
	var b bytes.Buffer
	for i, w := range words {
		if i > 0 {
			b.WriteByte(' ')
		}
		if w == "" || strings.ContainsAny(w, " \t\n'\"\\$`") {
			b.WriteString("'" + strings.ReplaceAll(w, "'", `'\''`) + "'")
		} else {
			b.WriteString(w)
		}
	}
	return b.String()
}
