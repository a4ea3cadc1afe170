package settings

import (
	"fmt"
	"gatehouse/internal/protocol"
)

// Bounds of a context window set by hand, in tokens: below the minimum a
// session could not hold its own system prompt (a window typed in
// thousands, "32" for 32,768, is caught here); the maximum is far above any
// model's.
const (
	MinContextWindow = 1_000
	MaxContextWindow = 10_000_000
)

// ContextLimits are the context settings as the Settings screen shows and
// sends them; 0 in any field is "detect" (the window) or the default.
type ContextLimits struct {
	// Window is the context window in tokens, used when neither the model
	// server nor the table of known models says.
	Window int `json:"window"`
	// MicroCompactAt: past this percent old tool outputs are cleared.
	MicroCompactAt int `json:"microCompactAt"`
	// CompactAt: past this percent older turns become a summary.
	CompactAt int `json:"compactAt"`
}

// Context returns the saved context settings.
func (s Settings) Context() ContextLimits {
	return ContextLimits{Window: s.ContextWindow, MicroCompactAt: s.MicroCompactAt, CompactAt: s.CompactAt}
}

// SetContext replaces the context settings.
func (s *Settings) SetContext(c ContextLimits) {
	s.ContextWindow, s.MicroCompactAt, s.CompactAt = c.Window, c.MicroCompactAt, c.CompactAt
}

// FieldError is a value the user typed that cannot be saved; Field names
// the ContextLimits field (its JSON name) so the screen can show the
// message at it.
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

func (e *FieldError) Error() string { return e.Message }

// Validate returns the first bad value as a *FieldError: a window of 0
// (detect) or MinContextWindow to MaxContextWindow tokens; thresholds of 0
// (the default) or 20 to 100 percent, the summary's above the clearing's
// (each as in effect, defaults included).
func (c ContextLimits) Validate() error {
	if c.Window != 0 && (c.Window < MinContextWindow || c.Window > MaxContextWindow) {
		return &FieldError{"window", fmt.Sprintf("The context window must be between %d and %d tokens, or empty to detect it; %d is not.",
			MinContextWindow, MaxContextWindow, c.Window)}
	}
	for _, f := range []struct {
		name string
		v    int
		what string
	}{{"microCompactAt", c.MicroCompactAt, "Clearing old tool output"}, {"compactAt", c.CompactAt, "Summarising older turns"}} {
		if !protocol.ValidCompactAt(f.v) {
			return &FieldError{f.name, fmt.Sprintf("%s must start between 20%% and 100%% of the window, or be empty for the default; %d%% is not.", f.what, f.v)}
		}
	}
	if micro, full := c.thresholds(); full <= micro {
		return &FieldError{"compactAt", fmt.Sprintf("Summarising older turns must start above clearing old tool output (%d%%), which is tried first; %d%% is not above it.", micro, full)}
	}
	return nil
}

// thresholds returns the thresholds in effect, defaults filled in.
func (c ContextLimits) thresholds() (micro, full int) {
	return protocol.CompactionThresholds(c.MicroCompactAt, c.CompactAt)
}
