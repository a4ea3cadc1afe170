package files

import (
	"context"
	_ "embed"
	"encoding/json"
	"path"
	"path/filepath"
	"strings"

	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

//go:embed glob.md
var globDoc string

// Glob is the glob tool.
type Glob struct{ ws *workspace.Workspace }

// NewGlob returns glob working in ws.
func NewGlob(ws *workspace.Workspace) *Glob { return &Glob{ws: ws} }

// Spec implements tools.Tool.
func (t *Glob) Spec() tools.Spec {
	return tools.Spec{Name: "glob", Description: globDoc, ReadOnly: true, Parameters: schema(`{
  "type": "object",
  "properties": {
    "pattern": {"type": "string", "description": "Glob such as **/*.go"},
    "path": {"type": "string", "description": "Folder to search (default: the workspace root)"},
    "maxResults": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Default 200"}
  },
  "required": ["pattern"],
  "additionalProperties": false
}`)}
}

type globArgs struct {
	Pattern    string `json:"pattern"`
	Path       string `json:"path"`
	MaxResults int    `json:"maxResults"`
}

type globResult struct {
	Pattern   string   `json:"pattern"`
	Matches   []string `json:"matches"`
	Truncated bool     `json:"truncated"`
	// HiddenByPolicy counts what the user's policy left out, and Hidden
	// says so in words.
	HiddenByPolicy int    `json:"hiddenByPolicy,omitempty"`
	Hidden         string `json:"hidden,omitempty"`
}

// Run implements tools.Tool.
func (t *Glob) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	var a globArgs
	if r, ok := tools.DecodeArgs(raw, &a); !ok {
		return r, nil
	}
	if a.Path == "" {
		a.Path = "."
	}
	pattern := strings.TrimPrefix(a.Pattern, "./")
	if pattern == "" {
		return tools.Fail(tools.CodeInvalidArguments, "pattern is empty", ""), nil
	}
	if _, err := path.Match(strings.ReplaceAll(pattern, "**", "*"), ""); err != nil {
		return tools.Fail(tools.CodeInvalidArguments, "bad pattern: "+err.Error(), ""), nil
	}
	if !strings.Contains(pattern, "/") {
		pattern = "**/" + pattern
	}
	base, err := ResolveDir(t.ws, a.Path)
	if err != nil {
		return tools.FailErr(err, tools.CodeIOError), nil
	}
	limit := clamp(a.MaxResults, 200, 1000)
	res := globResult{Pattern: a.Pattern, Matches: []string{}}
	w := &walker{ws: t.ws, ctx: ctx}
	err = w.walk(base, func(e entry) error {
		if e.dir {
			return nil
		}
		rel, err := filepath.Rel(base, e.abs)
		if err != nil || !matchGlob(pattern, filepath.ToSlash(rel)) {
			return nil
		}
		if e.link && !linkReadable(t.ws, e.abs) {
			return nil
		}
		if len(res.Matches) == limit {
			res.Truncated = true
			return errStop
		}
		res.Matches = append(res.Matches, e.rel)
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return tools.Result{}, ctx.Err()
		}
		return tools.FailErr(perr(tools.CodeIOError, a.Path, "%v", err), tools.CodeIOError), nil
	}
	res.HiddenByPolicy, res.Hidden = w.hidden, hiddenNote(w.hidden)
	return okHidden(res, w.hidden)
}

// linkReadable reports whether the symlink at abs resolves, through the
// boundary, to a readable file.
func linkReadable(ws *workspace.Workspace, abs string) bool {
	_, err := resolveFile(ws, abs)
	return err == nil
}
