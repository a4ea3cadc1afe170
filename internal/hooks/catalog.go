package hooks

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
)

// ID names a hook for the settings that turn it off: its scope, event,
// matcher and command (a changed command is another hook).
func (h Hook) ID() string {
	scope := h.Scope
	if scope == "" {
		scope = ScopeUser
	}
	sum := sha256.Sum256([]byte(scope + "\x00" + string(h.Event) + "\x00" + h.Matcher + "\x00" + h.Command))
	return hex.EncodeToString(sum[:8])
}

// Disable marks the hooks of hs whose ID is in off as disabled: they are
// listed and never run.
func Disable(hs []Hook, off []string) []Hook {
	for i := range hs {
		if slices.Contains(off, hs[i].ID()) {
			hs[i].Disabled = true
		}
	}
	return hs
}

// HookEntry is a hook as Settings → Hooks lists it.
type HookEntry struct {
	ID      string `json:"id"`
	Event   Event  `json:"event"`
	Matcher string `json:"matcher"`
	Command string `json:"command"`
	// TimeoutSec is the hook's timeout in seconds (the default when the
	// file gives none).
	TimeoutSec float64 `json:"timeoutSec"`
	// FailsClosed: a failure of this hook blocks the call or prompt
	// (PreToolUse or UserPromptSubmit without onError "continue").
	FailsClosed bool `json:"failsClosed"`
	// Source is ScopeUser or ScopeWorkspace; File the file it is in.
	Source  string `json:"source"`
	File    string `json:"file"`
	Enabled bool   `json:"enabled"`
}

// Entries are hs as Settings lists them, in their order (by event, then
// as written).
func Entries(hs []Hook) []HookEntry {
	out := make([]HookEntry, 0, len(hs))
	for _, h := range hs {
		scope := h.Scope
		if scope == "" {
			scope = ScopeUser
		}
		out = append(out, HookEntry{ID: h.ID(), Event: h.Event, Matcher: h.Matcher, Command: h.Command,
			TimeoutSec: h.Timeout.Seconds(), FailsClosed: h.Event.failsClosed() && !h.ContinueOnError,
			Source: scope, File: h.Source, Enabled: !h.Disabled})
	}
	return out
}
