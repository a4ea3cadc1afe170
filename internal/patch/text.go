package patch

import (
	"strings"

	"gatehouse/internal/sniff"
)

// text is a file's content as lines. Each line keeps a trailing "\r" when
// the file has one there, so lines the patch leaves alone are written back
// byte for byte; lines the patch adds get the file's dominant line ending.
type text struct {
	lines   []string
	finalNL bool // the content ends with "\n" (or is empty)
	crlf    bool // most line endings are "\r\n"
}

func splitText(s string) text {
	if len(s) == 0 {
		return text{finalNL: true}
	}
	n := strings.Count(s, "\n")
	t := text{lines: make([]string, 0, n+1)}
	crlf := 0
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			break
		}
		l := s[:i]
		if strings.HasSuffix(l, "\r") {
			crlf++
		}
		t.lines = append(t.lines, l)
		s = s[i+1:]
	}
	if s == "" {
		t.finalNL = true
	} else {
		t.lines = append(t.lines, s)
	}
	t.crlf = n > 0 && crlf*2 > n
	return t
}

// eol is the ending added lines get, before the "\n".
func (t *text) eol() string {
	if t.crlf {
		return "\r"
	}
	return ""
}

func (t *text) join() string {
	size := len(t.lines)
	for _, l := range t.lines {
		size += len(l)
	}
	var b strings.Builder
	b.Grow(size)
	for i, l := range t.lines {
		b.WriteString(l)
		if i < len(t.lines)-1 || t.finalNL {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// isBinary reports content the line model cannot edit faithfully.
func isBinary(s string) bool { return sniff.Binary(s) }
