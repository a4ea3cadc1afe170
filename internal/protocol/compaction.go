package protocol

// The compaction thresholds, in percent of the model's context window: past
// DefaultMicroCompactAt old tool outputs are cleared, past DefaultCompactAt
// older turns become a summary. The one definition: the agent applies it,
// the settings validate against it, and the page gets it generated
// (protocol.gen.ts).
const (
	DefaultMicroCompactAt = 70
	DefaultCompactAt      = 85
	// MinCompactAt is the lowest threshold that may be set.
	MinCompactAt = 20
)

// ValidCompactAt reports whether p may be set as a threshold: 0 (the
// default) or MinCompactAt to 100.
func ValidCompactAt(p int) bool { return p == 0 || p >= MinCompactAt && p <= 100 }

// CompactionThresholds returns the thresholds in effect for the configured
// ones: 0, or a value that may not be set, takes the default.
func CompactionThresholds(micro, full int) (int, int) {
	if micro == 0 || !ValidCompactAt(micro) {
		micro = DefaultMicroCompactAt
	}
	if full == 0 || !ValidCompactAt(full) {
		full = DefaultCompactAt
	}
	return micro, full
}
