package files

import (
	"context"
	_ "embed"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

//go:embed grep.md
var grepDoc string

const (
	grepMaxLine     = 500
	grepMaxFileSize = 8 << 20
)

// Grep is the grep tool.
type Grep struct{ ws *workspace.Workspace }

// NewGrep returns grep working in ws.
func NewGrep(ws *workspace.Workspace) *Grep { return &Grep{ws: ws} }

// Spec implements tools.Tool.
func (t *Grep) Spec() tools.Spec {
	return tools.Spec{Name: "grep", Description: grepDoc, ReadOnly: true, Parameters: schema(`{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "description": "Regular expression (RE2)"},
    "path": {"type": "string", "description": "Folder or file to search (default: the workspace root)"},
    "include": {"type": "string", "description": "Glob of files to search, e.g. *.go"},
    "caseInsensitive": {"type": "boolean"},
    "maxResults": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Default 100"}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`)}
}

type grepArgs struct {
	Pattern         string `json:"pattern"`
	Path            string `json:"path"`
	Include         string `json:"include"`
	CaseInsensitive bool   `json:"caseInsensitive"`
	MaxResults      int    `json:"maxResults"`
}

type grepMatch struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Text string `json:"text"`
}

type grepResult struct {
	Pattern       string      `json:"pattern"`
	Matches       []grepMatch `json:"matches"`
	FilesSearched int         `json:"filesSearched"`
	Truncated     bool        `json:"truncated"`
	// HiddenByPolicy counts what the user's policy left out, and Hidden
	// says so in words.
	HiddenByPolicy int    `json:"hiddenByPolicy,omitempty"`
	Hidden         string `json:"hidden,omitempty"`
}

// Run implements tools.Tool.
func (t *Grep) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	var a grepArgs
	if r, ok := tools.DecodeArgs(raw, &a); !ok {
		return r, nil
	}
	expr := a.Pattern
	if a.CaseInsensitive {
		expr = "(?i)" + expr
	}
	re, err := regexp.Compile(expr)
	if err != nil || a.Pattern == "" {
		msg := "pattern is empty"
		if err != nil {
			msg = "bad pattern: " + err.Error()
		}
		return tools.Fail(tools.CodeInvalidArguments, msg, ""), nil
	}
	include := strings.TrimPrefix(a.Include, "./")
	if include != "" && !strings.Contains(include, "/") {
		include = "**/" + include
	}
	if a.Path == "" {
		a.Path = "."
	}
	res := grepResult{Pattern: a.Pattern, Matches: []grepMatch{}}
	limit := clamp(a.MaxResults, 100, 1000)
	m := newMatcher(re)
	abs, err := t.ws.Resolve(a.Path, workspace.Read)
	if err != nil {
		return tools.FailErr(err, tools.CodeIOError), nil
	}
	if fi, err := os.Stat(abs); err == nil && !fi.IsDir() {
		res.FilesSearched = 1
		var more bool
		_, res.Matches, more = m.searchFile(abs, t.ws.Rel(abs), nil, limit, res.Matches)
		res.Truncated = more
		return t.done(ctx, res, nil, a.Path)
	}
	base, err := ResolveDir(t.ws, a.Path)
	if err != nil {
		return tools.FailErr(err, tools.CodeIOError), nil
	}
	// The walk only enters folders the boundary lets a read reach, so a
	// file it visits needs no Resolve of its own; a symlink does.
	w := &walker{ws: t.ws, ctx: ctx, noSize: true}
	pool := newGrepPool(ctx, m, limit, &res)
	err = w.walk(base, func(e entry) error {
		if e.dir {
			return nil
		}
		if include != "" {
			rel, err := filepath.Rel(base, e.abs)
			if err != nil || !matchGlob(include, filepath.ToSlash(rel)) {
				return nil
			}
		}
		target := e.abs
		if e.link {
			r, err := resolveFile(t.ws, e.abs)
			if err != nil {
				return nil // outside the boundary, dangling, or a folder
			}
			target = r
		}
		return pool.add(e.rel, target)
	})
	pool.finish()
	res.HiddenByPolicy, res.Hidden = w.hidden, hiddenNote(w.hidden)
	return t.done(ctx, res, err, a.Path)
}

func (t *Grep) done(ctx context.Context, res grepResult, err error, path string) (tools.Result, error) {
	if err == errStop {
		err = nil
	}
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		return tools.FailErr(perr(tools.CodeIOError, path, "%v", err), tools.CodeIOError), nil
	}
	return okHidden(res, res.HiddenByPolicy)
}

// resolveFile resolves p (already absolute or as the model gave it) for
// reading and checks it is a file.
func resolveFile(ws *workspace.Workspace, p string) (string, error) {
	abs, err := ws.Resolve(p, workspace.Read)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return "", perr(tools.CodeIsDirectory, p, "is a folder")
	}
	if k := workspace.Kind(fi.Mode()); k != "" {
		return "", perr(tools.CodeNotRegular, p, "is %s, not a regular file", k)
	}
	return abs, nil
}
