package settings

import (
	"fmt"
	"path"
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
	for name, s := range ls {
		if name == "" {
			return fmt.Errorf("settings: a language server without a name")
		}
		for _, p := range s.FilePatterns {
			if _, err := path.Match(p, ""); err != nil {
				return fmt.Errorf("settings: language server %s: file pattern %q: %w", name, p, err)
			}
		}
	}
	return nil
}
