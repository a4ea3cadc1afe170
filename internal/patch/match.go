package patch

import "strings"

// Matching levels, tried in order: each is more forgiving than the last.
const (
	levelExact   = iota // ignoring only a "\r" line ending
	levelTrimEnd        // ignoring trailing whitespace
	levelTrim           // ignoring surrounding whitespace
	levelNormal         // and Unicode dashes, quotes and spaces
	numLevels
)

// matcher finds a chunk's lines in a file's lines. Keys of the file's lines
// are computed once per level, lazily, so a file with many chunks is keyed
// at most numLevels times; each search is KMP over keys, linear in the lines
// it passes.
type matcher struct {
	lines []string
	keys  [numLevels][]string
}

func newMatcher(lines []string) *matcher { return &matcher{lines: lines} }

func key(level int, s string) string {
	switch level {
	case levelExact:
		return strings.TrimSuffix(s, "\r")
	case levelTrimEnd:
		return strings.TrimRight(s, " \t\r\n\f\v")
	case levelTrim:
		return strings.TrimSpace(s)
	default:
		return normalise(strings.TrimSpace(s))
	}
}

func (m *matcher) fileKeys(level int) []string {
	if m.keys[level] == nil {
		k := make([]string, len(m.lines))
		for i, l := range m.lines {
			k[i] = key(level, l)
		}
		m.keys[level] = k
	}
	return m.keys[level]
}

// seek returns the index of the first occurrence of pattern at or after
// start, trying each level in turn; with eof, only the position that ends
// the file is tried. It returns -1 when there is none.
func (m *matcher) seek(pattern []string, start int, eof bool) int {
	n, k := len(m.lines), len(pattern)
	if k == 0 {
		return start
	}
	if k > n || start > n-k && !eof {
		return -1
	}
	pk := make([]string, k)
	for level := 0; level < numLevels; level++ {
		for i, p := range pattern {
			pk[i] = key(level, p)
		}
		fk := m.fileKeys(level)
		if eof {
			if equal(fk[n-k:], pk) {
				return n - k
			}
			continue
		}
		if i := kmp(fk[start:], pk); i >= 0 {
			return start + i
		}
	}
	return -1
}

func equal(a, b []string) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// kmp returns the index of the first occurrence of pat in s, or -1.
func kmp(s, pat []string) int {
	k := len(pat)
	if k == 1 { // the common case of a context line: no table needed
		for i, l := range s {
			if l == pat[0] {
				return i
			}
		}
		return -1
	}
	fail := make([]int, k)
	for i, j := 1, 0; i < k; i++ {
		for j > 0 && pat[i] != pat[j] {
			j = fail[j-1]
		}
		if pat[i] == pat[j] {
			j++
		}
		fail[i] = j
	}
	for i, j := 0, 0; i < len(s); i++ {
		for j > 0 && s[i] != pat[j] {
			j = fail[j-1]
		}
		if s[i] == pat[j] {
			j++
			if j == k {
				return i - k + 1
			}
		}
	}
	return -1
}

// normalise maps the Unicode punctuation models and editors swap for ASCII
// (dashes, curly quotes, non-breaking and typographic spaces) to ASCII.
func normalise(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch r {
		case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
			return '-'
		case '\u2018', '\u2019', '\u201A', '\u201B':
			return '\''
		case '\u201C', '\u201D', '\u201E', '\u201F':
			return '"'
		case '\u00A0', '\u2002', '\u2003', '\u2004', '\u2005', '\u2006',
			'\u2007', '\u2008', '\u2009', '\u200A', '\u202F', '\u205F', '\u3000':
			return ' '
		}
		return r
	}, s)
}
