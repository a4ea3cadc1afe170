package files

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"unicode/utf8"

	"gatehouse/internal/sniff"
	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

//go:embed read_file.md
var readFileDoc string

const (
	readDefaultChars = 12000
	readMaxChars     = 200000
	readMaxFileSize  = 64 << 20
)

// ReadFile is the read_file tool.
type ReadFile struct{ ws *workspace.Workspace }

// NewReadFile returns read_file working in ws.
func NewReadFile(ws *workspace.Workspace) *ReadFile { return &ReadFile{ws: ws} }

// Spec implements tools.Tool.
func (t *ReadFile) Spec() tools.Spec {
	return tools.Spec{Name: "read_file", Description: readFileDoc, ReadOnly: true, Parameters: schema(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "File path, relative to the workspace root"},
    "startLine": {"type": "integer", "minimum": 1, "description": "First line to read (1-based)"},
    "endLine": {"type": "integer", "minimum": 1, "description": "Last line to read (inclusive)"},
    "maxChars": {"type": "integer", "minimum": 1, "description": "Most characters to return (default 12000)"}
  },
  "required": ["path"],
  "additionalProperties": false
}`)}
}

type readArgs struct {
	Path      string `json:"path"`
	StartLine int    `json:"startLine"`
	EndLine   int    `json:"endLine"`
	MaxChars  int    `json:"maxChars"`
}

type readResult struct {
	Path       string `json:"path"`
	Content    string `json:"content"`
	StartLine  int    `json:"startLine"`
	EndLine    int    `json:"endLine"`
	TotalLines int    `json:"totalLines"`
	Truncated  bool   `json:"truncated"`
}

// Run implements tools.Tool.
func (t *ReadFile) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	var a readArgs
	if r, ok := tools.DecodeArgs(raw, &a); !ok {
		return r, nil
	}
	res, err := t.read(a)
	if err != nil {
		return tools.FailErr(err, tools.CodeIOError), nil
	}
	return tools.OK(res)
}

func (t *ReadFile) read(a readArgs) (*readResult, error) {
	if a.EndLine != 0 && a.StartLine > a.EndLine {
		return nil, perr(tools.CodeInvalidArguments, a.Path, "startLine %d is after endLine %d", a.StartLine, a.EndLine)
	}
	abs, err := t.ws.Resolve(a.Path, workspace.Read)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, perr(tools.CodeNotFound, a.Path, "no such file")
		}
		return nil, perr(tools.CodeIOError, a.Path, "%v", err)
	}
	if fi.IsDir() {
		return nil, perr(tools.CodeIsDirectory, a.Path, "is a folder; use list_dir to see what it holds")
	}
	if k := workspace.Kind(fi.Mode()); k != "" {
		return nil, perr(tools.CodeNotRegular, a.Path, "is %s, not a regular file: only regular files can be read", k)
	}
	if fi.Size() > readMaxFileSize {
		return nil, perr(tools.CodeIOError, a.Path, "the file is too large to read (%d bytes)", fi.Size())
	}
	// Opened again as a regular file only: a FIFO swapped in since the
	// look is refused, not waited on.
	b, trunc, err := workspace.ReadRegular(abs, readMaxFileSize)
	var nr *workspace.NotRegularError
	switch {
	case errors.As(err, &nr):
		return nil, perr(tools.CodeNotRegular, a.Path, "is %s, not a regular file: only regular files can be read", nr.Kind)
	case err != nil:
		return nil, perr(tools.CodeIOError, a.Path, "%v", err)
	case trunc:
		return nil, perr(tools.CodeIOError, a.Path, "the file is too large to read (over %d bytes)", readMaxFileSize)
	}
	if !sniff.Text(b) {
		return nil, perr(tools.CodeBinaryFile, a.Path, "is a binary or non-UTF-8 file (%d bytes); it cannot be shown as text", len(b))
	}
	lines := splitLines(b)
	res := &readResult{Path: t.ws.Rel(abs), TotalLines: len(lines)}
	start := max(a.StartLine, 1)
	end := len(lines)
	if a.EndLine > 0 && a.EndLine < end {
		end = a.EndLine
	}
	res.StartLine = start
	if start > len(lines) {
		res.EndLine = len(lines)
		return res, nil // nothing there: empty content, totalLines says why
	}
	budget := clamp(a.MaxChars, readDefaultChars, readMaxChars)
	var out []byte
	last := start - 1
	for i := start; i <= end; i++ {
		l := lines[i-1]
		n := utf8.RuneCount(l)
		if n > budget {
			if last < start { // even the first line does not fit: cut it
				out = appendNumbered(out, i, cutRunes(l, budget))
				last = i
			}
			res.Truncated = true
			break
		}
		budget -= n
		out = appendNumbered(out, i, l)
		last = i
	}
	res.Content, res.EndLine = string(out), last
	return res, nil
}

// appendNumbered appends line n as `cat -n` shows it: the number right-aligned
// in six columns, a tab, then the line as it is in the file (its ending, if
// it has one, included). The tab keeps the number apart from the text even
// when the line itself starts with digits or spaces.
func appendNumbered(out []byte, n int, line []byte) []byte {
	out = fmt.Appendf(out, "%6d\t", n)
	return append(out, line...)
}

// splitLines splits b after each "\n", keeping the endings.
func splitLines(b []byte) [][]byte {
	var lines [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			lines = append(lines, b)
			break
		}
		lines = append(lines, b[:i+1])
		b = b[i+1:]
	}
	return lines
}

func cutRunes(b []byte, n int) []byte {
	i := 0
	for ; n > 0 && i < len(b); n-- {
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return b[:i]
}
