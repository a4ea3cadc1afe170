// Package builtin assembles the built-in tools of a session: the file tools
// and bash, all reaching the disk through one workspace boundary.
package builtin

import (
	"fmt"
	"os"

	"gatehouse/internal/proc"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/bash"
	"gatehouse/internal/tools/files"
	"gatehouse/internal/workspace"
)

// Tools returns the built-in tools working in ws; bash runs its processes in
// procs, which the caller owns (and closes when the session ends).
func Tools(ws *workspace.Workspace, procs *proc.Registry) []tools.Tool {
	return append(files.All(ws), bash.New(bash.Config{Registry: procs, Dirs: Dirs{WS: ws}}))
}

// Registry returns a tool registry holding Tools(ws, procs).
func Registry(ws *workspace.Workspace, procs *proc.Registry) (*tools.Registry, error) {
	return tools.NewRegistry(Tools(ws, procs)...)
}

// Dirs resolves the folder a command starts in through the workspace
// boundary: "" and "." are the workspace root, relative paths are against it,
// and the result must be an existing folder inside the workspace.
type Dirs struct{ WS *workspace.Workspace }

// ResolveDir implements bash.DirResolver.
func (d Dirs) ResolveDir(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	p, err := d.WS.Resolve(dir, workspace.Read)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(p)
	if err != nil {
		return "", &dirError{code: tools.CodeNotFound, path: dir, msg: fmt.Sprintf("folder %q does not exist", dir)}
	}
	if !fi.IsDir() {
		return "", &dirError{code: tools.CodeNotDirectory, path: dir, msg: fmt.Sprintf("%q is not a folder", dir)}
	}
	return p, nil
}

type dirError struct{ code, path, msg string }

func (e *dirError) Error() string     { return e.msg }
func (e *dirError) ErrorCode() string { return e.code }
func (e *dirError) ErrorPath() string { return e.path }
