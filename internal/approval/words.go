package approval

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Words as patterns: what a word that expands (a glob, quoting around
// parts of it) can name, for the checks that must see .gi[t] as .git.

// pattern returns the shell pattern of word w of s: the pattern recorded
// for a word that expands, else w with its glob characters escaped.
func (s *segment) pattern(w string) string {
	if p, ok := s.pats[w]; ok {
		return p
	}
	return escapeGlob(w)
}

// decl builds the segment of export, declare, local, readonly or typeset:
// it changes the state the rest of the line runs in (opaque), and may set
// a variable that makes git run code.
func (a *analyzer) decl(st *syntax.Stmt, d *syntax.DeclClause) *segment {
	start, end := st.Pos().Offset(), d.End().Offset()
	s := &segment{start: start, end: end}
	s.Text = strings.TrimSpace(a.src[start:min(end, uint(len(a.src)))])
	s.Args = []string{d.Variant.Value}
	s.Opaque = true
	for _, as := range d.Args {
		if as.Name != nil && gitEnvName(as.Name.Value) && s.GitCode == "" {
			s.GitCode = as.Name.Value
		}
		s.Args = append(s.Args, a.src[as.Pos().Offset():as.End().Offset()])
	}
	a.segs = append(a.segs, s)
	return s
}

// wordPattern returns the shell pattern a word stands for: its unquoted
// text keeps its glob characters, quoted text is escaped, and anything
// expanded at run time (a parameter, a substitution, braces) may be
// anything (*).
func wordPattern(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(braces.ReplaceAllString(p.Value, "*"))
		case *syntax.SglQuoted:
			if p.Dollar {
				b.WriteString("*")
			} else {
				b.WriteString(escapeGlob(p.Value))
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok && !p.Dollar {
					b.WriteString(escapeGlob(unescape(l.Value, true)))
				} else {
					b.WriteString("*")
				}
			}
		default:
			b.WriteString("*")
		}
	}
	return b.String()
}

// braces matches a brace expansion in unquoted text ({a,b}, {1..3}).
var braces = regexp.MustCompile(`\{[^{}]*(,|\.\.)[^{}]*\}`)

// escapeGlob escapes the characters path.Match reads as a pattern.
func escapeGlob(s string) string {
	if !strings.ContainsAny(s, `*?[]\`) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
