package files

import (
	"bytes"
	"regexp"
	"regexp/syntax"
	"strings"
	"unicode/utf8"

	"gatehouse/internal/sniff"
	"gatehouse/internal/workspace"
)

// matcher finds the lines of a file that match a pattern, line by line
// as a scanner splits them (a trailing "\r" is not part of the line).
type matcher struct {
	re *regexp.Regexp
	// lit is a string every match holds (nil when the pattern has none
	// that is safe to search for as bytes): lines without it are skipped
	// without running the regexp.
	lit []byte
	// exact: lit is the whole pattern, so finding it is a match.
	exact bool
	rare  int // the offset in lit of its least common byte
	// fold: lit is lower-case ASCII found in either case (a (?i) pattern).
	fold bool
}

func newMatcher(re *regexp.Regexp) *matcher {
	m := &matcher{re: re}
	parsed, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return m
	}
	parsed = parsed.Simplify()
	if lit := requiredLiteral(parsed); safeLiteral(lit) && lit != "" {
		// The pattern is this literal alone (no anchors, no case folding):
		// finding it is a match.
		m.lit, m.exact = []byte(lit), parsed.Op == syntax.OpLiteral
	} else if lit := foldLiteral(parsed); lit != "" {
		m.lit, m.fold = []byte(lit), true
	}
	m.rare = rarest(m.lit)
	return m
}

// safeLiteral reports whether a match found as bytes is a candidate line
// exactly when the regexp could match there: no line breaks (a line never
// holds one) and no U+FFFD (the regexp matches it on invalid UTF-8).
func safeLiteral(s string) bool {
	for _, r := range s {
		if r == '\n' || r == '\r' || r == utf8.RuneError {
			return false
		}
	}
	return true
}

// requiredLiteral returns the longest case-sensitive literal every match
// of re holds ("" when there is none).
func requiredLiteral(re *syntax.Regexp) string {
	return longestLiteral(re, func(lit *syntax.Regexp) string {
		if lit.Flags&syntax.FoldCase != 0 {
			return ""
		}
		return string(lit.Rune)
	})
}

// longestLiteral returns the longest of the literals every match of re
// holds, each as leaf takes it ("" when leaf refuses it).
func longestLiteral(re *syntax.Regexp, leaf func(*syntax.Regexp) string) string {
	switch re.Op {
	case syntax.OpLiteral:
		return leaf(re)
	case syntax.OpCapture, syntax.OpPlus:
		return longestLiteral(re.Sub[0], leaf)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return longestLiteral(re.Sub[0], leaf)
		}
	case syntax.OpConcat:
		best := ""
		for _, sub := range re.Sub {
			if s := longestLiteral(sub, leaf); len(s) > len(best) {
				best = s
			}
		}
		return best
	}
	return ""
}

// foldLiteral returns, lower-cased, the longest case-insensitive literal
// every match of re holds, when matching it ignoring ASCII case is exact:
// ASCII only, and no k or s (Unicode folds the Kelvin sign and the long s
// to them).
func foldLiteral(re *syntax.Regexp) string {
	return longestLiteral(re, func(re *syntax.Regexp) string {
		lit := strings.ToLower(string(re.Rune))
		for i := range len(lit) {
			if c := lit[i]; c >= utf8.RuneSelf || c == 'k' || c == 's' || c == '\n' || c == '\r' {
				return ""
			}
		}
		return lit
	})
}

// indexFold is index for a fold literal: its rare byte in either case.
func (m *matcher) indexFold(s []byte) int {
	r, n := m.rare, len(m.lit)
	lo, up := m.lit[r], m.lit[r]
	if 'a' <= lo && lo <= 'z' {
		up = lo - 'a' + 'A'
	}
	next := func(from int, c byte) int {
		if j := bytes.IndexByte(s[from:], c); j >= 0 {
			return from + j
		}
		return -1
	}
	nl, nu := -2, -2 // the next of each at or after i; -1: none left
	for i := r; i < len(s); {
		if nl != -1 && nl < i {
			nl = next(i, lo)
		}
		if nu != -1 && nu < i {
			nu = next(i, up)
		}
		p := nl
		if p < 0 || nu >= 0 && nu < p {
			p = nu
		}
		if p < 0 {
			return -1
		}
		if start := p - r; start+n <= len(s) && asciiEqualFold(s[start:start+n], m.lit) {
			return start
		}
		i = p + 1
	}
	return -1
}

// asciiEqualFold reports whether b equals the lower-case lit ignoring
// ASCII case.
func asciiEqualFold(b, lit []byte) bool {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lit[i] {
			return false
		}
	}
	return true
}

// search appends to out the matches in data (a whole file), at most max
// of them, and reports whether there were more.
func (m *matcher) search(data []byte, rel string, max int, out []grepMatch) ([]grepMatch, bool) {
	line, at := 1, 0 // line is the number of the line starting at at
	pos := 0
	for pos <= len(data) {
		start := pos
		if m.lit != nil {
			var i int
			if m.fold {
				i = m.indexFold(data[pos:])
			} else {
				i = m.index(data[pos:])
			}
			if i < 0 {
				break
			}
			start = pos + i
			if j := bytes.LastIndexByte(data[pos:start], '\n'); j >= 0 {
				start = pos + j + 1
			} else {
				start = pos
			}
		}
		end := len(data)
		next := end + 1
		if j := bytes.IndexByte(data[start:], '\n'); j >= 0 {
			end, next = start+j, start+j+1
		} else if start == len(data) {
			break // the empty rest after a final newline is no line
		}
		text := data[start:end]
		if n := len(text); n > 0 && text[n-1] == '\r' {
			text = text[:n-1]
		}
		if m.exact || m.re.Match(text) {
			line += bytes.Count(data[at:start], []byte{'\n'})
			at = start
			if len(out) == max {
				return out, true
			}
			out = append(out, grepMatch{Path: rel, Line: line, Text: shownLine(text)})
		}
		pos = next
	}
	return out, false
}

// commonBytes lists bytes from the most common in source code and text
// to the least; bytes it does not list are rarer still.
const commonBytes = " etaoinsrlcdhupmfg\t.(),_=\"yb\n:wv0k1/*x;-2{}'&[]#>j<3q+!z4895867" +
	"ETSRAIONCLDPMFBGHUWKVYXJQZ|%\\?@$^~`"

var byteRank = func() (r [256]int) {
	for i := range len(commonBytes) {
		r[commonBytes[i]] = len(commonBytes) - i
	}
	return r
}()

// rarest returns the offset of the least common byte of lit.
func rarest(lit []byte) int {
	at := 0
	for i, b := range lit {
		if byteRank[b] < byteRank[lit[at]] {
			at = i
		}
	}
	return at
}

// index is bytes.Index(s, m.lit), looking for the literal's rarest byte
// first: fewer false starts than its first byte in most text. When the
// rare byte turns out common here it hands over to bytes.Index.
func (m *matcher) index(s []byte) int {
	r, c, n := m.rare, m.lit[m.rare], len(m.lit)
	misses := 0
	for i := r; i < len(s); i++ {
		j := bytes.IndexByte(s[i:], c)
		if j < 0 {
			return -1
		}
		i += j
		if start := i - r; start+n <= len(s) && bytes.Equal(s[start:start+n], m.lit) {
			return start
		}
		if misses++; misses > 8 && misses > i>>6 {
			if k := bytes.Index(s[i-r+1:], m.lit); k >= 0 {
				return i - r + 1 + k
			}
			return -1
		}
	}
	return -1
}

// shownLine is a matching line as the model reads it.
func shownLine(line []byte) string {
	text := string(bytes.TrimRight(line, "\r"))
	if utf8.RuneCountInString(text) > grepMaxLine {
		text = string([]rune(text)[:grepMaxLine]) + "…"
	}
	return text
}

// searchFile reads the file at abs into buf (grown as needed and returned
// for reuse) and appends its matches to out, at most max of them; more
// reports there were more. Binary, huge, unreadable and irregular files
// are skipped, a binary one on its first block.
func (m *matcher) searchFile(abs, rel string, buf []byte, max int, out []grepMatch) (_ []byte, _ []grepMatch, more bool) {
	data, tooLarge, binary, err := workspace.ReadRegularInto(abs, buf, grepMaxFileSize, sniff.Binary[[]byte])
	if err != nil || tooLarge || binary {
		return data, out, false // unreadable, not a regular file (a FIFO), huge or binary
	}
	out, more = m.search(data, rel, max, out)
	return data, out, more
}
