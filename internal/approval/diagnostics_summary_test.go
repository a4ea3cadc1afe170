package approval

import (
	"bytes"
	"strings"
	"testing"

	"gatehouse/internal/protocol"
)

// TestTheTerminalPromptSaysWhatAProposalIntroduces: exec's prompt prints
// the language servers' summary when it arrives; "checking" prints
// nothing, a timeout says so.
func TestTheTerminalPromptSaysWhatAProposalIntroduces(t *testing.T) {
	var out bytes.Buffer
	term := NewTerminal(strings.NewReader(""), &out)
	term.Diagnostics("a1", protocol.ApprovalDiagnosticsPayload{State: "checking"})
	if out.Len() != 0 {
		t.Fatalf("checking printed %q", out.String())
	}
	err := protocol.Diagnostic{Path: "main.go", Line: 6, Col: 14, Severity: "error", Message: "undefined: x"}
	warn := protocol.Diagnostic{Path: "main.go", Line: 7, Col: 1, Severity: "warning", Message: "unused"}
	term.Diagnostics("a1", protocol.ApprovalDiagnosticsPayload{State: "done", Files: []protocol.FileDiagnostics{
		{Path: "main.go", Introduced: []protocol.Diagnostic{err, warn}}, {Path: "b.go", Introduced: []protocol.Diagnostic{err, err}}}})
	term.Diagnostics("a1", protocol.ApprovalDiagnosticsPayload{State: "timeout", Note: "gopls timed out after 10s"})
	if got := out.String(); got != "\nintroduces 1 error in main.go, 2 errors in b.go\n\nlanguage servers: gopls timed out after 10s\n" {
		t.Fatalf("%q", got)
	}
}
