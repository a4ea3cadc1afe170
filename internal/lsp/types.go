package lsp

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"gatehouse/internal/protocol"
)

// The LSP types this client uses, as the protocol spells them.

// Position is zero-based; Character counts UTF-16 units.
type Position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// Range is [Start, End).
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// Location is a range in a document.
type Location struct {
	URI   string `json:"uri"`
	Range Range  `json:"range"`
}

// Severity of a diagnostic, as LSP numbers it.
type Severity int

const (
	SeverityError       Severity = 1
	SeverityWarning     Severity = 2
	SeverityInformation Severity = 3
	SeverityHint        Severity = 4
)

func (s Severity) String() string {
	switch s {
	case SeverityError:
		return "error"
	case SeverityWarning:
		return "warning"
	case SeverityInformation:
		return "info"
	case SeverityHint:
		return "hint"
	}
	return "error" // LSP: absent means the client decides
}

// lspDiagnostic is a diagnostic as the server sends it.
type lspDiagnostic struct {
	Range    Range    `json:"range"`
	Severity Severity `json:"severity"`
	Source   string   `json:"source"`
	Message  string   `json:"message"`
}

type publishParams struct {
	URI         string          `json:"uri"`
	Version     *int            `json:"version"`
	Diagnostics []lspDiagnostic `json:"diagnostics"`
}

// Diagnostic is one problem in a file, as Gatehouse shows it (the path
// workspace-relative, lines and columns 1-based).
type Diagnostic = protocol.Diagnostic

// Format is the form the model reads: path:line:col severity message.
func Format(d Diagnostic) string {
	msg := strings.Join(strings.Fields(d.Message), " ")
	return fmt.Sprintf("%s:%d:%d %s %s", d.Path, d.Line, d.Col, d.Severity, msg)
}

// fileURI is the file:// URI of an absolute path.
func fileURI(abs string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	return u.String()
}

// uriPath is the absolute path of a file:// URI ("" for any other).
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return filepath.FromSlash(u.Path)
}
