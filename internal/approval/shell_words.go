package approval

// The words of a command line: a word's literal value when it has no
// expansion, and whether it expands or substitutes.

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// literal returns the value of w when it has no expansion at all: only
// plain text, single quotes and double quotes around plain text.
func literal(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescape(p.Value, false))
		case *syntax.SglQuoted:
			if p.Dollar {
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				return "", false
			}
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(unescape(l.Value, true))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// expands reports whether w, though literal() reads it as text, expands
// to something else: an unquoted glob (*, ?, [), brace expansion ({a,b},
// {1..3}) or tilde (~ at the start, or after = or : in an assignment-like
// word).
func expands(w *syntax.Word) bool {
	for i, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		v := l.Value
		if i == 0 && strings.HasPrefix(v, "~") || strings.Contains(v, "=~") || strings.Contains(v, ":~") {
			return true
		}
		for j := 0; j < len(v); j++ {
			switch v[j] {
			case '\\':
				j++
			case '*', '?':
				return true
			case '[': // a pattern only with its closing ]: `[ -f x ]` is not
				if strings.Contains(v[j+1:], "]") {
					return true
				}
			}
		}
	}
	return syntax.SplitBraces(&syntax.Word{Parts: slices.Clone(w.Parts)})
}

// unescape removes the backslashes the shell removes: every one outside
// quotes, and inside double quotes those before $ ` " \ and newline.
func unescape(s string, dquoted bool) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		next := s[i+1]
		if dquoted && !strings.ContainsRune("$`\"\\\n", rune(next)) {
			b.WriteByte('\\')
			continue
		}
		i++
		if next != '\n' {
			b.WriteByte(next)
		}
	}
	return b.String()
}

// hasSubst reports whether w runs commands when expanded.
func hasSubst(w *syntax.Word) bool {
	found := false
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			found = true
		}
		return !found
	})
	return found
}
