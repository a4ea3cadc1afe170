// Package termsafe makes text that came from a model, a workspace or a
// server safe to print on a terminal: control characters (ESC and the
// rest of C0, DEL, C1, and the bidirectional overrides) are written as
// visible escapes, so a command like `echo safe\e[2K\e[1A…` cannot erase
// the lines above it or draw others in their place.
package termsafe

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Line escapes every control character of s, newlines and tabs included:
// for text shown on one line (a command, a name, a path).
func Line(s string) string { return escape(s, false) }

// Text escapes the control characters of s but keeps newlines and tabs:
// for text shown as lines (a diff, a description).
func Text(s string) string { return escape(s, true) }

func escape(s string, keepLines bool) string {
	if !needs(s, keepLines) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case keepLines && (r == '\n' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == 0x1b:
			b.WriteString(`\e`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0 || bidi(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func needs(s string, keepLines bool) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || r < 0x20 && !(keepLines && (r == '\n' || r == '\t')) ||
			r == 0x7f || r >= 0x80 && r < 0xa0 || bidi(r) {
			return true
		}
		i += n
	}
	return false
}

// bidi reports the characters that reorder the text around them on screen
// (the "trojan source" overrides and isolates).
func bidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f
}
