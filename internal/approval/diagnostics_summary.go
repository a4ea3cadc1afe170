package approval

import (
	"fmt"
	"strconv"
	"strings"

	"gatehouse/internal/protocol"
	"gatehouse/internal/termsafe"
)

// DiagnosticsSummary is the language servers' word on a proposal in one
// line, for a terminal prompt or an editor's permission request:
// "introduces 2 errors in main.go", why it is not known, or "" when the
// change introduces no error.
func DiagnosticsSummary(p protocol.ApprovalDiagnosticsPayload) string {
	switch p.State {
	case "checking":
		return "language servers: checking…"
	case "timeout", "failed":
		return "language servers: " + p.Note
	}
	var parts []string
	for _, f := range p.Files {
		n := 0
		for _, x := range f.Introduced {
			if x.Severity == "error" {
				n++
			}
		}
		switch {
		case n == 1:
			parts = append(parts, "1 error in "+f.Path)
		case n > 1:
			parts = append(parts, strconv.Itoa(n)+" errors in "+f.Path)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "introduces " + strings.Join(parts, ", ")
}

// Diagnostics implements DiagnosticsHearer: the terminal prints the
// outcome of the language servers' check under the waiting prompt.
func (t *Terminal) Diagnostics(_ string, p protocol.ApprovalDiagnosticsPayload) {
	if p.State == "checking" {
		return
	}
	if line := DiagnosticsSummary(p); line != "" {
		fmt.Fprintf(t.out, "\n%s\n", termsafe.Line(line))
	}
}
