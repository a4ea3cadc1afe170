package settings

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// LanguageServer is one entry of the "languageServers" block: a language
// server Gatehouse runs for diagnostics after edits and in the approval
// dialog. An entry named like a built-in one (gopls, typescript, pyright)
// replaces it (its empty fields keep the built-in's values); Disabled
// turns it off.
type LanguageServer struct {
	Command      string            `json:"command,omitempty"`
	Args         []string          `json:"args,omitempty"`
	FilePatterns []string          `json:"filePatterns,omitempty"`
	RootMarkers  []string          `json:"rootMarkers,omitempty"`
	Env          map[string]string `json:"env,omitempty"`
	// InitializationOptions are given to the server as they are.
	InitializationOptions map[string]any `json:"initializationOptions,omitempty"`
	Disabled              bool           `json:"disabled,omitempty"`
}

// validateLanguageServers reports the first entry that cannot run.
func validateLanguageServers(ls map[string]LanguageServer) error {
	names := make([]string, 0, len(ls))
	for name := range ls {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if err := ValidateLanguageServer(name, ls[name]); err != nil {
			return err
		}
	}
	return nil
}

// ValidateLanguageServer checks one entry of the block: a name of letters,
// digits, '.', '_' or '-'; a command that is one program (its arguments go
// in Args); file patterns path.Match accepts; root markers that are file
// names. Whether an entry that is not built in has a command and patterns
// is for the language servers to say (lsp.CheckConfig).
func ValidateLanguageServer(name string, s LanguageServer) error {
	if name == "" {
		return fmt.Errorf("settings: a language server without a name")
	}
	if len(name) > 64 || strings.IndexFunc(name, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '_' || r == '-')
	}) >= 0 {
		return fmt.Errorf("settings: language server %q: a name is letters, digits, '.', '_' or '-' (at most 64)", name)
	}
	if c := s.Command; c != "" && (strings.TrimSpace(c) != c || strings.ContainsAny(c, " \t\n") && !filepath.IsAbs(c)) {
		return fmt.Errorf("settings: language server %s: the command %q is one program; put its arguments under args", name, c)
	}
	for _, p := range s.FilePatterns {
		if strings.TrimSpace(p) == "" {
			return fmt.Errorf("settings: language server %s: an empty file pattern", name)
		}
		if _, err := path.Match(p, ""); err != nil {
			return fmt.Errorf("settings: language server %s: file pattern %q: %w", name, p, err)
		}
	}
	for _, m := range s.RootMarkers {
		if m == "" || m == "." || m == ".." || strings.ContainsAny(m, "/\\") {
			return fmt.Errorf("settings: language server %s: root marker %q is not a file name", name, m)
		}
	}
	return nil
}
