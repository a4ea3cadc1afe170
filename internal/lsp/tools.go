package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"

	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// Tools are the model's read-only language tools over m, every path
// through the workspace boundary of ws: diagnostics, definition and
// references.
func Tools(m *Manager, ws *workspace.Workspace) []tools.Tool {
	return []tools.Tool{&diagnosticsTool{m, ws}, &locateTool{m, ws, "definition"}, &locateTool{m, ws, "references"}}
}

type diagnosticsTool struct {
	m  *Manager
	ws *workspace.Workspace
}

func (t *diagnosticsTool) Spec() tools.Spec {
	return tools.Spec{Name: "diagnostics", ReadOnly: true,
		Description: "Errors and warnings a language server (gopls, TypeScript, pyright) reports. With path: that file, checked now as it is on disk. Without: every file the servers have open (the files you edited or asked about). Each line is path:line:col severity message.",
		Parameters: json.RawMessage(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "File path, relative to the workspace root (optional)"}
  },
  "additionalProperties": false
}`)}
}

func (t *diagnosticsTool) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	var a struct {
		Path string `json:"path"`
	}
	if r, ok := tools.DecodeArgs(raw, &a); !ok {
		return r, nil
	}
	var res Result
	if a.Path != "" {
		abs, err := t.ws.Resolve(a.Path, workspace.Read)
		if err != nil {
			return tools.FailErr(err, tools.CodeOutsideWorkspace), nil
		}
		if !t.m.Handles(abs) {
			return tools.Fail(tools.CodeInvalidArguments, "no language server checks this file", a.Path), nil
		}
		res = t.m.Check(ctx, Disk(abs), false)
	} else {
		res = t.m.Current()
	}
	lines := []string{}
	paths := make([]string, 0, len(res.Files))
	hidden, denied := 0, t.ws.DenyNow()
	for p := range res.Files {
		// A server's words on a file the user's policy hides may quote it.
		if denied(filepath.Join(t.m.Root(), filepath.FromSlash(p)), workspace.Read) != "" {
			hidden++
			continue
		}
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		for _, d := range res.Files[p] {
			if len(lines) < 200 {
				lines = append(lines, Format(d))
			}
		}
	}
	out := map[string]any{"diagnostics": lines, "files": len(paths), "problems": res.Problems}
	if hidden > 0 {
		out["hidden"] = fmt.Sprintf("the diagnostics of %d file(s) were hidden by the user's policy", hidden)
	}
	return tools.OK(out)
}

type locateTool struct {
	m    *Manager
	ws   *workspace.Workspace
	what string
}

func (t *locateTool) Spec() tools.Spec {
	desc := "Where the symbol at path:line:column is defined, asked of the language server (gopls, TypeScript, pyright)."
	if t.what == "references" {
		desc = "Every reference to the symbol at path:line:column (its declaration too), asked of the language server (gopls, TypeScript, pyright); at most 100."
	}
	return tools.Spec{Name: t.what, ReadOnly: true, Description: desc, Parameters: json.RawMessage(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "File path, relative to the workspace root"},
    "line": {"type": "integer", "minimum": 1, "description": "1-based line of the symbol"},
    "column": {"type": "integer", "minimum": 1, "description": "1-based column (in characters) of the symbol"}
  },
  "required": ["path", "line", "column"],
  "additionalProperties": false
}`)}
}

func (t *locateTool) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	var a struct {
		Path   string `json:"path"`
		Line   int    `json:"line"`
		Column int    `json:"column"`
	}
	if r, ok := tools.DecodeArgs(raw, &a); !ok {
		return r, nil
	}
	abs, err := t.ws.Resolve(a.Path, workspace.Read)
	if err != nil {
		return tools.FailErr(err, tools.CodeOutsideWorkspace), nil
	}
	places, total, err := t.m.Locate(ctx, t.what, abs, a.Line, a.Column)
	if err != nil {
		return tools.Fail(tools.CodeInvalidArguments, err.Error(), a.Path), nil
	}
	denied := t.ws.DenyNow()
	for i, p := range places {
		// The line of a place is read by the app, not through the
		// boundary: a file the user's policy hides keeps its text.
		if why := denied(filepath.Join(t.m.Root(), filepath.FromSlash(p.Path)), workspace.Read); why != "" && !p.Outside {
			places[i].Text, places[i].Hidden = "", workspace.HiddenReason(why)
		}
	}
	return tools.OK(map[string]any{"locations": places, "total": total})
}
