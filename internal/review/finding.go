// Package review runs a model review of a diff: the reviewer agent (a
// read-only agent definition, built-in and overridable like the others)
// reads the diff and the files around it as a child of a session, so its
// calls pass that session's gate and budget, and reports each problem
// through the report_findings tool, whose schema is the only way a finding
// is made (nothing is parsed out of the answer's prose). Findings are
// anchored to the hunk of the diff their lines fall in, and keep the lines
// they were made on, so a finding whose lines changed since is marked
// outdated.
package review

import (
	"fmt"
	"strings"
)

// Severity grades a finding.
type Severity string

// The severities, gravest first.
const (
	Critical Severity = "critical"
	High     Severity = "high"
	Medium   Severity = "medium"
	Low      Severity = "low"
	Info     Severity = "info"
)

// Severities lists them gravest first.
var Severities = []Severity{Critical, High, Medium, Low, Info}

// rank is 0 for critical up to 4 for info, -1 for none.
func (s Severity) rank() int {
	for i, v := range Severities {
		if v == s {
			return i
		}
	}
	return -1
}

// AtLeast says whether s is as grave as min or graver.
func (s Severity) AtLeast(min Severity) bool {
	r, m := s.rank(), min.rank()
	return r >= 0 && m >= 0 && r <= m
}

// ParseSeverity reads a severity's name.
func ParseSeverity(s string) (Severity, error) {
	v := Severity(strings.ToLower(strings.TrimSpace(s)))
	if v.rank() < 0 {
		return "", fmt.Errorf("unknown severity %q: critical, high, medium, low or info", s)
	}
	return v, nil
}

// Finding is one problem the reviewer reported.
type Finding struct {
	// ID numbers the findings of one review (f1, f2, …).
	ID       string   `json:"id"`
	Severity Severity `json:"severity"`
	// File is the path as the diff names it (relative to the workspace);
	// StartLine and EndLine the range on the diff's new side.
	File      string `json:"file"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	Title     string `json:"title"`
	// Explanation says what goes wrong and when.
	Explanation string `json:"explanation"`
	// Suggestion is the replacement text for the lines ("": none offered).
	Suggestion string `json:"suggestion,omitempty"`

	// HunkID and HunkHeader name the hunk of the diff the finding is
	// anchored to ("" when its lines are in no hunk of the diff).
	HunkID     string `json:"hunkId,omitempty"`
	HunkHeader string `json:"hunkHeader,omitempty"`
	// Lines are the new side's lines StartLine..EndLine as reviewed, as far
	// as the hunk shows them: what "changed since" is checked against.
	Lines []string `json:"lines,omitempty"`
	// LinesFrom is the number of Lines' first line.
	LinesFrom int `json:"linesFrom,omitempty"`
	// Outdated is set once the lines changed since the review (Refresh).
	Outdated bool `json:"outdated,omitempty"`
}

// Anchor names where f is, as a message quoting it says it:
// "src/a.go:10-12" or "src/a.go:10".
func (f Finding) Anchor() string {
	if f.EndLine > f.StartLine {
		return fmt.Sprintf("%s:%d-%d", f.File, f.StartLine, f.EndLine)
	}
	return fmt.Sprintf("%s:%d", f.File, f.StartLine)
}

// Text is the finding as a message to an agent or the clipboard: its
// severity, anchor, title, explanation and suggested change.
func (f Finding) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[%s] %s: %s\n\n%s\n", f.Severity, f.Anchor(), f.Title, strings.TrimSpace(f.Explanation))
	if f.HunkHeader != "" {
		fmt.Fprintf(&b, "\nIn the hunk %s.\n", f.HunkHeader)
	}
	if f.Suggestion != "" {
		fmt.Fprintf(&b, "\nSuggested change for those lines:\n```\n%s\n```\n", strings.TrimRight(f.Suggestion, "\n"))
	}
	return b.String()
}

// FixMessage is what "Fix" sends the session's agent: the finding with its
// anchor, and what to do.
func (f Finding) FixMessage() string {
	return "Fix this finding of a code review:\n\n" + f.Text()
}

// Worst is the gravest severity among findings that are not outdated
// ("" when none).
func Worst(fs []Finding) Severity {
	var w Severity
	for _, f := range fs {
		if !f.Outdated && (w == "" || f.Severity.rank() < w.rank()) {
			w = f.Severity
		}
	}
	return w
}
