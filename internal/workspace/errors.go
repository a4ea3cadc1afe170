package workspace

import "fmt"

// Stable codes of refusals; they equal the codes of package tools.
const (
	CodeInvalid   = "invalid_arguments"
	CodeOutside   = "outside_workspace"
	CodeProtected = "protected_path"
	CodeReadOnly  = "read_only_root"
	CodeLoop      = "symlink_loop"
	CodeIO        = "io_error"
	// CodeGone: the workspace root itself was deleted; nothing is written.
	CodeGone = "workspace_gone"
	// CodeNotRegular: a FIFO, socket, device or folder where a file is read.
	CodeNotRegular = "not_regular_file"
)

// Error is a refused path: the path the model gave, a stable code and the
// reason in words.
type Error struct {
	Path   string
	Code   string
	Reason string
}

func (e *Error) Error() string { return fmt.Sprintf("path %q refused: %s", e.Path, e.Reason) }

// ErrorCode returns the stable code (see package tools).
func (e *Error) ErrorCode() string { return e.Code }

// ErrorPath returns the path as the model gave it.
func (e *Error) ErrorPath() string { return e.Path }
