// Package files holds the file tools: read_file, write_file, apply_patch,
// list_dir, glob and grep. Every path they touch goes through the workspace
// boundary (workspace.Resolve); each tool's description for the model sits
// beside it in a .md file.
package files

import (
	"encoding/json"
	"fmt"

	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// All returns the file tools working in ws, in a stable order. Hosts append
// other tools (bash, MCP) to the same list.
func All(ws *workspace.Workspace) []tools.Tool {
	return []tools.Tool{
		NewReadFile(ws),
		NewWriteFile(ws),
		NewApplyPatch(ws),
		NewListDir(ws),
		NewGlob(ws),
		NewGrep(ws),
	}
}

// pathError is a failure about one path the model gave, with a stable code.
type pathError struct {
	code, path, msg string
}

func (e *pathError) Error() string     { return fmt.Sprintf("%s: %s", e.path, e.msg) }
func (e *pathError) ErrorCode() string { return e.code }
func (e *pathError) ErrorPath() string { return e.path }

func perr(code, path, format string, args ...any) error {
	return &pathError{code: code, path: path, msg: fmt.Sprintf(format, args...)}
}

func schema(s string) json.RawMessage { return json.RawMessage(s) }

// clamp returns v, or def when v is 0, limited to [1, max].
func clamp(v, def, max int) int {
	if v <= 0 {
		v = def
	}
	if v > max {
		v = max
	}
	return v
}
