// Package patch parses, plans and applies file changes: the apply_patch
// format models are trained on (Codex's), and whole-file writes.
//
// Everything goes in two steps. Planning reads the files through the
// workspace boundary, computes every file's new content and diff, and records
// a hash of each file it read, without touching the disk; any failure there
// leaves the disk as it was. Applying re-checks those hashes, writes each file
// through a temp file renamed into place in the same folder (keeping the
// file's mode), and restores what it already wrote if a later write fails.
//
// Where models expect it, the format behaves as Codex's does: "*** Add File:"
// for a file that exists replaces it, and "*** Move to:" onto a file that
// exists replaces that file (the plan marks both as Replaces). One deliberate
// difference: a patch applies all or nothing, where Codex keeps the
// operations done before a failing one.
package patch

import (
	"fmt"
	"regexp"
	"strings"
)

// OpKind is what an operation does to its file.
type OpKind string

const (
	OpAdd    OpKind = "add"
	OpDelete OpKind = "delete"
	OpUpdate OpKind = "update"
)

// Patch is a parsed patch: its operations in order.
type Patch struct {
	Ops []Op
}

// Op is one "*** Add/Delete/Update File:" section.
type Op struct {
	Kind    OpKind
	Path    string  // as written in the patch
	MoveTo  string  // Update only: "*** Move to:" destination, or ""
	Content string  // Add only: the new file's content
	Chunks  []Chunk // Update only
	Line    int     // 1-based line of the header in the patch text
}

// LineKind is the role of a line in a chunk.
type LineKind byte

const (
	Context LineKind = ' '
	Remove  LineKind = '-'
	Insert  LineKind = '+'
)

// Line is one line of a chunk, without its prefix.
type Line struct {
	Kind LineKind
	Text string
}

// Chunk is one "@@" section of an Update.
type Chunk struct {
	// Context is the text after "@@ ": a line to find before the chunk's
	// lines. Empty when the chunk starts with a bare "@@" or none at all.
	Context string
	Lines   []Line
	// EOF is set by "*** End of File": the chunk's lines end the file.
	EOF  bool
	Line int // 1-based line of the chunk's first line in the patch text
}

// Old returns the lines the chunk expects in the file (context and removed).
func (c *Chunk) Old() []string { return c.side(Insert) }

// New returns the lines the chunk leaves (context and inserted).
func (c *Chunk) New() []string { return c.side(Remove) }

func (c *Chunk) side(skip LineKind) []string {
	out := make([]string, 0, len(c.Lines))
	for _, l := range c.Lines {
		if l.Kind != skip {
			out = append(out, l.Text)
		}
	}
	return out
}

const (
	beginMarker  = "*** Begin Patch"
	endMarker    = "*** End Patch"
	addHeader    = "*** Add File: "
	deleteHeader = "*** Delete File: "
	updateHeader = "*** Update File: "
	moveHeader   = "*** Move to: "
	eofMarker    = "*** End of File"
)

// heredoc matches the first line of a shell heredoc wrapper such as
// "<<'EOF'" or "apply_patch <<EOF"; group 1 is the terminator.
var heredoc = regexp.MustCompile(`^(?:apply_patch\s+)?<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?$`)

// unifiedRange matches a unified-diff range some models put after "@@":
// "-12,7 +12,8 @@" (optionally followed by context text).
var unifiedRange = regexp.MustCompile(`^-\d+(?:,\d+)? \+\d+(?:,\d+)? @@ ?`)

// Parse parses patch text. Surrounding whitespace and a heredoc wrapper are
// tolerated; line endings may be LF or CRLF.
func Parse(text string) (*Patch, error) {
	trimmed := strings.TrimSpace(text)
	// offset: lines dropped before lines[0], for line numbers.
	offset := strings.Count(text[:strings.Index(text, trimmed)], "\n")
	lines := strings.Split(trimmed, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	if len(lines) >= 2 {
		if m := heredoc.FindStringSubmatch(strings.TrimSpace(lines[0])); m != nil &&
			strings.TrimSpace(lines[len(lines)-1]) == m[1] {
			lines = lines[1 : len(lines)-1]
			offset++
		}
	}
	if len(lines) == 0 || strings.TrimSpace(lines[0]) != beginMarker {
		return nil, parseErr(offset+1, "the patch must start with %q", beginMarker)
	}
	if len(lines) < 2 || strings.TrimSpace(lines[len(lines)-1]) != endMarker {
		return nil, parseErr(offset+len(lines), "the patch must end with %q", endMarker)
	}
	p := &parser{lines: lines[1 : len(lines)-1], base: offset + 2}
	if err := p.parse(); err != nil {
		return nil, err
	}
	if len(p.patch.Ops) == 0 {
		return nil, parseErr(offset+1, "the patch has no operations")
	}
	return &p.patch, nil
}

type parser struct {
	lines []string
	pos   int
	base  int // patch line number of lines[0]
	patch Patch
}

func (p *parser) lineNo() int { return p.base + p.pos }

func (p *parser) parse() error {
	for p.pos < len(p.lines) {
		raw := p.lines[p.pos]
		h := strings.TrimSpace(raw)
		if h == "" {
			p.pos++
			continue
		}
		op := Op{Line: p.lineNo()}
		switch {
		case strings.HasPrefix(h, addHeader):
			op.Kind, op.Path = OpAdd, strings.TrimSpace(h[len(addHeader):])
		case strings.HasPrefix(h, deleteHeader):
			op.Kind, op.Path = OpDelete, strings.TrimSpace(h[len(deleteHeader):])
		case strings.HasPrefix(h, updateHeader):
			op.Kind, op.Path = OpUpdate, strings.TrimSpace(h[len(updateHeader):])
		default:
			return parseErr(p.lineNo(), "%q is not a valid operation header; valid headers are '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'", raw)
		}
		if op.Path == "" {
			return parseErr(p.lineNo(), "%q names no path", raw)
		}
		p.pos++
		var err error
		switch op.Kind {
		case OpAdd:
			op.Content = p.addContent()
		case OpUpdate:
			err = p.update(&op)
		}
		if err != nil {
			return err
		}
		p.patch.Ops = append(p.patch.Ops, op)
	}
	return nil
}

func (p *parser) addContent() string {
	var b strings.Builder
	for p.pos < len(p.lines) && strings.HasPrefix(p.lines[p.pos], "+") {
		b.WriteString(p.lines[p.pos][1:])
		b.WriteByte('\n')
		p.pos++
	}
	return b.String()
}

func (p *parser) update(op *Op) error {
	if p.pos < len(p.lines) {
		if h := strings.TrimSpace(p.lines[p.pos]); strings.HasPrefix(h, moveHeader) {
			op.MoveTo = strings.TrimSpace(h[len(moveHeader):])
			if op.MoveTo == "" {
				return parseErr(p.lineNo(), "%q names no path", p.lines[p.pos])
			}
			p.pos++
		}
	}
	for p.pos < len(p.lines) {
		l := p.lines[p.pos]
		if strings.TrimSpace(l) == "" {
			p.pos++ // blank lines between chunks
			continue
		}
		if strings.HasPrefix(l, "***") {
			break
		}
		c, err := p.chunk(len(op.Chunks) == 0)
		if err != nil {
			return err
		}
		op.Chunks = append(op.Chunks, c)
	}
	if len(op.Chunks) == 0 && op.MoveTo == "" {
		return parseErr(op.Line, "the update of %q has no changes", op.Path)
	}
	return nil
}

func (p *parser) chunk(first bool) (Chunk, error) {
	c := Chunk{Line: p.lineNo()}
	head := strings.TrimRight(p.lines[p.pos], " \t")
	switch {
	case head == "@@":
		p.pos++
	case strings.HasPrefix(head, "@@ "):
		ctx := strings.TrimSpace(head[3:])
		for unifiedRange.MatchString(ctx) {
			ctx = strings.TrimSpace(unifiedRange.ReplaceAllString(ctx, ""))
		}
		c.Context = ctx
		p.pos++
	case !first:
		return c, parseErr(p.lineNo(), "expected a chunk to start with '@@', got %q", p.lines[p.pos])
	}
	for p.pos < len(p.lines) {
		l := p.lines[p.pos]
		if strings.TrimRight(l, " \t") == eofMarker {
			if len(c.Lines) == 0 {
				break
			}
			c.EOF = true
			p.pos++
			return c, nil
		}
		if l == "" {
			c.Lines = append(c.Lines, Line{Context, ""})
			p.pos++
			continue
		}
		switch LineKind(l[0]) {
		case Context, Remove, Insert:
			c.Lines = append(c.Lines, Line{LineKind(l[0]), l[1:]})
			p.pos++
			continue
		}
		if len(c.Lines) == 0 {
			return c, parseErr(p.lineNo(), "unexpected line %q in a chunk: every line must start with ' ' (context), '+' (added) or '-' (removed)", l)
		}
		break
	}
	if len(c.Lines) == 0 {
		return c, parseErr(c.Line, "the chunk has no lines")
	}
	// Trailing blank lines usually only separate this chunk from the next;
	// as context they would only constrain the match, so they are dropped.
	for len(c.Lines) > 1 && c.Lines[len(c.Lines)-1] == (Line{Context, ""}) {
		c.Lines = c.Lines[:len(c.Lines)-1]
	}
	return c, nil
}

// ParseError is a patch that does not follow the format.
type ParseError struct {
	Line int // 1-based line in the patch text
	Msg  string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("invalid patch at line %d: %s", e.Line, e.Msg)
}

// ErrorCode returns patch_parse_error.
func (e *ParseError) ErrorCode() string { return CodeParse }

func parseErr(line int, format string, args ...any) error {
	return &ParseError{Line: line, Msg: fmt.Sprintf(format, args...)}
}
