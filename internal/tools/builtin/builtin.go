// Package builtin assembles the built-in tools of a session: the file tools
// and bash, all reaching the disk through one workspace boundary, and
// web_fetch, reaching only public addresses.
package builtin

import (
	"gatehouse/internal/proc"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/bash"
	"gatehouse/internal/tools/files"
	"gatehouse/internal/tools/web"
	"gatehouse/internal/workspace"
)

// Tools returns the built-in tools working in ws; bash runs its processes in
// procs, which the caller owns (and closes when the session ends).
func Tools(ws *workspace.Workspace, procs *proc.Registry) []tools.Tool {
	return ToolsWith(ws, procs, web.Config{})
}

// ToolsWith is Tools with web_fetch's configuration (the session's
// network policy).
func ToolsWith(ws *workspace.Workspace, procs *proc.Registry, wc web.Config) []tools.Tool {
	return append(files.All(ws), bash.New(bash.Config{Registry: procs, Dirs: Dirs{WS: ws}}), web.New(wc))
}

// Registry returns a tool registry holding Tools(ws, procs).
func Registry(ws *workspace.Workspace, procs *proc.Registry) (*tools.Registry, error) {
	return tools.NewRegistry(Tools(ws, procs)...)
}

// Dirs resolves the folder a command starts in through the workspace
// boundary: "" and "." are the workspace root, relative paths are against it,
// and the result must be an existing folder inside the workspace.
type Dirs struct{ WS *workspace.Workspace }

// ResolveDir implements bash.DirResolver with the file tools' own check.
func (d Dirs) ResolveDir(dir string) (string, error) { return files.ResolveDir(d.WS, dir) }
