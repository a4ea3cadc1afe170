package files

import (
	"context"
	_ "embed"
	"encoding/json"
	"os"

	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

//go:embed list_dir.md
var listDirDoc string

const listMaxEntries = 1000

// ListDir is the list_dir tool.
type ListDir struct{ ws *workspace.Workspace }

// NewListDir returns list_dir working in ws.
func NewListDir(ws *workspace.Workspace) *ListDir { return &ListDir{ws: ws} }

// Spec implements tools.Tool.
func (t *ListDir) Spec() tools.Spec {
	return tools.Spec{Name: "list_dir", Description: listDirDoc, ReadOnly: true, Parameters: schema(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "Folder, relative to the workspace root (default: the root)"},
    "depth": {"type": "integer", "minimum": 1, "maximum": 5, "description": "Levels to list (default 1)"}
  },
  "additionalProperties": false
}`)}
}

type listArgs struct {
	Path  string `json:"path"`
	Depth int    `json:"depth"`
}

type listEntry struct {
	Path string `json:"path"`
	Type string `json:"type"`
	Size *int64 `json:"size,omitempty"`
}

type listResult struct {
	Path      string      `json:"path"`
	Entries   []listEntry `json:"entries"`
	Truncated bool        `json:"truncated"`
	// HiddenByPolicy counts what the user's policy left out, and Hidden
	// says so in words.
	HiddenByPolicy int    `json:"hiddenByPolicy,omitempty"`
	Hidden         string `json:"hidden,omitempty"`
}

// Run implements tools.Tool.
func (t *ListDir) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	var a listArgs
	if r, ok := tools.DecodeArgs(raw, &a); !ok {
		return r, nil
	}
	if a.Path == "" {
		a.Path = "."
	}
	abs, err := ResolveDir(t.ws, a.Path)
	if err != nil {
		return tools.FailErr(err, tools.CodeIOError), nil
	}
	res := listResult{Path: t.ws.Rel(abs), Entries: []listEntry{}}
	w := &walker{ws: t.ws, ctx: ctx, maxDepth: clamp(a.Depth, 1, 5)}
	err = w.walk(abs, func(e entry) error {
		if len(res.Entries) == listMaxEntries {
			res.Truncated = true
			return errStop
		}
		le := listEntry{Path: e.rel, Type: "file"}
		switch {
		case e.link:
			le.Type = "symlink"
		case e.dir:
			le.Type = "dir"
		default:
			size := e.size
			le.Size = &size
		}
		res.Entries = append(res.Entries, le)
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

// ResolveDir resolves path through the workspace boundary for reading and
// checks that it is an existing folder; errors carry the stable codes
// (not_found, not_directory, outside_workspace, …). "" is the root.
func ResolveDir(ws *workspace.Workspace, path string) (string, error) {
	if path == "" {
		path = "."
	}
	abs, err := ws.Resolve(path, workspace.Read)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		if os.IsNotExist(err) {
			return "", perr(tools.CodeNotFound, path, "no such folder")
		}
		return "", perr(tools.CodeIOError, path, "%v", err)
	}
	if !fi.IsDir() {
		return "", perr(tools.CodeNotDirectory, path, "is a file, not a folder")
	}
	return abs, nil
}
