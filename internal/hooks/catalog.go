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
	if h.Agent != "" {
		scope += " " + h.Agent
	}
	sum := sha256.Sum256([]byte(scope + "\x00" + string(h.Event) + "\x00" + h.Matcher + "\x00" + h.Command))
	return hex.EncodeToString(sum[:8])
}

// Disable returns hs with the hooks whose ID is in off marked disabled:
// they are listed and never run. hs itself is left as it is (a
// workspace's hooks are shared between runs).
func Disable(hs []Hook, off []string) []Hook {
	if len(off) == 0 {
		return hs
	}
	out := slices.Clone(hs)
	for i := range out {
		if slices.Contains(off, out[i].ID()) {
			out[i].Disabled = true
		}
	}
	return out
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
	// Source is ScopeUser, ScopeWorkspace or ScopeAgent; File the file
	// it is in.
	Source string `json:"source"`
	File   string `json:"file"`
	// Agent names the definition of a ScopeAgent hook (it runs for that
	// agent's children); Confined: a workspace's definition (it runs
	// confined, once trusted).
	Agent    string `json:"agent,omitempty"`
	Confined bool   `json:"confined,omitempty"`
	Enabled  bool   `json:"enabled"`
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
			Source: scope, File: h.Source, Agent: h.Agent, Confined: h.Confined, Enabled: !h.Disabled})
	}
	return out
}
