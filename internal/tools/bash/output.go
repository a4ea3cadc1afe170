package bash

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"gatehouse/internal/proc"
)

// maxLine bounds a line held back by the carriage-return collapser: a longer
// line without a newline is passed on as it is.
const maxLine = 64 << 10

// collapser passes output on with the lines redrawn by carriage returns
// (progress bars) reduced to their last state: "10%\r50%\r100%\n" becomes
// "100%\n". "\r\n" is a line end. A CR at the very end is dropped.
type collapser struct {
	out  func([]byte)
	line []byte
	cr   bool
}

func (c *collapser) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexAny(p, "\r\n")
		if i < 0 {
			c.text(p)
			break
		}
		c.text(p[:i])
		if p[i] == '\n' {
			c.cr = false
			c.line = append(c.line, '\n')
			c.out(c.line)
			c.line = c.line[:0]
		} else {
			c.cr = true
		}
		p = p[i+1:]
	}
	return n, nil
}

func (c *collapser) text(p []byte) {
	if len(p) == 0 {
		return
	}
	if c.cr { // a redraw: what came before the CR is overwritten
		c.line, c.cr = c.line[:0], false
	}
	c.line = append(c.line, p...)
	if len(c.line) > maxLine {
		c.out(c.line)
		c.line = c.line[:0]
	}
}

// Flush passes on the line held back.
func (c *collapser) Flush() {
	if len(c.line) > 0 {
		c.out(c.line)
		c.line = c.line[:0]
	}
	c.cr = false
}

// capture keeps what the model reads of one output stream: collapsed, then
// its first head and last tail bytes, however much the command prints.
type capture struct {
	col   collapser
	head  []byte
	max   int
	tail  *proc.Ring
	total int64
}

func newCapture(head, tail int) *capture {
	c := &capture{head: make([]byte, 0, head), max: head, tail: proc.NewRing(tail)}
	c.col.out = c.keep
	return c
}

func (c *capture) Write(p []byte) (int, error) { return c.col.Write(p) }

func (c *capture) keep(p []byte) {
	c.total += int64(len(p))
	if room := c.max - len(c.head); room > 0 {
		k := min(room, len(p))
		c.head = append(c.head, p[:k]...)
		p = p[k:]
	}
	c.tail.Write(p)
}

// String returns the kept output with escape sequences removed, and whether
// some was cut out; the cut is marked and falls on UTF-8 boundaries.
func (c *capture) String() (string, bool) {
	c.col.Flush()
	start, end := c.tail.Bounds()
	tail, _, _, _ := c.tail.ReadAt(start, int(end-start))
	if c.total == int64(len(c.head))+int64(len(tail)) {
		return string(proc.StripANSI(append(c.head, tail...))), false
	}
	head := c.head[:len(c.head)-partialRune(c.head)]
	tail = tail[leadingContinuation(tail):]
	omitted := c.total - int64(len(head)) - int64(len(tail))
	s := string(proc.StripANSI(head)) + fmt.Sprintf("\n[… %d bytes omitted …]\n", omitted) + string(proc.StripANSI(tail))
	return s, true
}

// partialRune counts the bytes at the end of b that start an unfinished
// UTF-8 sequence.
func partialRune(b []byte) int {
	for k := 1; k < utf8.UTFMax && k <= len(b); k++ {
		c := b[len(b)-k]
		if utf8.RuneStart(c) {
			if !utf8.FullRune(b[len(b)-k:]) {
				return k
			}
			return 0
		}
	}
	return 0
}

// leadingContinuation counts the UTF-8 continuation bytes b starts with (at
// most 3: more are not the rest of a rune).
func leadingContinuation(b []byte) int {
	k := 0
	for k < len(b) && k < utf8.UTFMax-1 && !utf8.RuneStart(b[k]) {
		k++
	}
	return k
}

// cleanTerminal turns terminal output into text for the model: escape
// sequences removed, redrawn lines collapsed, "\r\n" as "\n".
func cleanTerminal(b []byte) string {
	var out bytes.Buffer
	c := collapser{out: func(p []byte) { out.Write(p) }}
	c.Write(proc.StripANSI(b))
	c.Flush()
	return out.String()
}
