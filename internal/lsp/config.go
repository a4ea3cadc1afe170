package lsp

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// ServerConfig is one language server: how to start it and which files it
// checks. The settings' "languageServers" block holds these by name; the
// built-in ones (Defaults) apply unless a setting of the same name
// replaces or disables them.
type ServerConfig struct {
	// Name is the server's name ("gopls"), set from the settings' key.
	Name string `json:"-"`
	// Language is the LSP language id of the files ("go", "typescript");
	// "" takes it from each file's extension.
	Language string `json:"language,omitempty"`
	// Command is the program (looked up on PATH), Args its arguments.
	Command string   `json:"command"`
	Args    []string `json:"args,omitempty"`
	// Patterns are the file name patterns it checks ("*.go").
	Patterns []string `json:"filePatterns"`
	// RootMarkers are files whose folder is a project's root (go.mod);
	// informational: the server's root is the workspace.
	RootMarkers []string `json:"rootMarkers,omitempty"`
	// Env is added to the server's environment.
	Env map[string]string `json:"env,omitempty"`
	// Options are the server's initializationOptions.
	Options map[string]any `json:"initializationOptions,omitempty"`
	// Disabled turns a built-in server off.
	Disabled bool `json:"disabled,omitempty"`
}

// Defaults are the built-in servers: gopls, typescript-language-server
// and pyright, used when found on PATH.
func Defaults() []ServerConfig {
	return []ServerConfig{
		{Name: "gopls", Language: "go", Command: "gopls", Patterns: []string{"*.go"},
			RootMarkers: []string{"go.work", "go.mod"}},
		{Name: "typescript", Command: "typescript-language-server", Args: []string{"--stdio"},
			Patterns:    []string{"*.ts", "*.tsx", "*.mts", "*.cts", "*.js", "*.jsx", "*.mjs", "*.cjs"},
			RootMarkers: []string{"tsconfig.json", "jsconfig.json", "package.json"}},
		{Name: "pyright", Language: "python", Command: "pyright-langserver", Args: []string{"--stdio"},
			Patterns: []string{"*.py", "*.pyi"}, RootMarkers: []string{"pyproject.toml", "pyrightconfig.json", "setup.py"}},
	}
}

// Merge is the built-in servers with the user's over them: a user's entry
// of the same name replaces the built-in one; others are added after.
func Merge(defaults []ServerConfig, user map[string]ServerConfig) []ServerConfig {
	out := make([]ServerConfig, 0, len(defaults)+len(user))
	seen := map[string]bool{}
	for _, d := range defaults {
		if u, ok := user[d.Name]; ok {
			u.Name = d.Name
			if u.Command == "" {
				u.Command, u.Args = d.Command, d.Args
			}
			if len(u.Patterns) == 0 {
				u.Patterns = d.Patterns
			}
			if len(u.RootMarkers) == 0 {
				u.RootMarkers = d.RootMarkers
			}
			if u.Language == "" {
				u.Language = d.Language
			}
			d = u
		}
		seen[d.Name] = true
		out = append(out, d)
	}
	names := make([]string, 0, len(user))
	for n := range user {
		if !seen[n] {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		u := user[n]
		u.Name = n
		out = append(out, u)
	}
	return out
}

// Matches reports whether the server checks the file at rel.
func (c ServerConfig) Matches(rel string) bool {
	base := path.Base(filepath.ToSlash(rel))
	for _, p := range c.Patterns {
		if ok, _ := path.Match(p, base); ok {
			return true
		}
		if ok, _ := path.Match(p, filepath.ToSlash(rel)); ok {
			return true
		}
	}
	return false
}

// languageID is the LSP language id of a file the server checks.
func (c ServerConfig) languageID(rel string) string {
	switch strings.ToLower(path.Ext(rel)) {
	case ".go":
		return "go"
	case ".ts", ".mts", ".cts":
		return "typescript"
	case ".tsx":
		return "typescriptreact"
	case ".js", ".mjs", ".cjs":
		return "javascript"
	case ".jsx":
		return "javascriptreact"
	case ".py", ".pyi":
		return "python"
	}
	if c.Language != "" {
		return c.Language
	}
	return strings.TrimPrefix(path.Ext(rel), ".")
}

// LookPath finds prog in the PATH of env, never in the current folder (the
// workspace).
func LookPath(prog string, env []string) (string, error) {
	if filepath.IsAbs(prog) {
		if fi, err := os.Stat(prog); err != nil || fi.IsDir() {
			return "", &exec.Error{Name: prog, Err: exec.ErrNotFound}
		}
		return prog, nil
	}
	p := ""
	for _, kv := range env {
		if strings.HasPrefix(kv, "PATH=") {
			p = kv[5:]
		}
	}
	for _, d := range filepath.SplitList(p) {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		f := filepath.Join(d, prog)
		if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return f, nil
		}
	}
	return "", &exec.Error{Name: prog, Err: exec.ErrNotFound}
}

// CheckConfig says why the user's entry c of name cannot run as a server
// ("" names none): one that replaces a built-in server may leave out what
// the built-in one has; any other needs a command and file patterns,
// unless it is turned off.
func CheckConfig(name string, c ServerConfig) error {
	if c.Disabled || slices.ContainsFunc(Defaults(), func(d ServerConfig) bool { return d.Name == name }) {
		return nil
	}
	if c.Command == "" {
		return fmt.Errorf("language server %s: a command is needed (the program that speaks LSP on stdin and stdout)", name)
	}
	if len(c.Patterns) == 0 {
		return fmt.Errorf("language server %s: file patterns are needed (the files it checks, like *.rs)", name)
	}
	return nil
}

// Installed is where the command of c is, in the PATH of env as the
// server would get it ("" and an error: not installed).
func Installed(c ServerConfig, env []string) (string, error) {
	return LookPath(c.Command, serverEnv(env, c.Env))
}
