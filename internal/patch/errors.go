package patch

import "fmt"

// Stable codes of errors; they equal the codes of package tools.
const (
	CodeParse           = "patch_parse_error"
	CodeContextNotFound = "patch_context_not_found"
	CodeChanged         = "changed_since_preview"
	CodeNotFound        = "not_found"
	CodeAlreadyExists   = "already_exists"
	CodeIsDirectory     = "is_directory"
	CodeBinary          = "binary_file"
	CodeIO              = "io_error"
	CodeInvalid         = "invalid_arguments"
	CodeNotRegular      = "not_regular_file"
)

// Error is a planned or applied change that cannot go ahead. Path is the
// path as written in the patch or the call.
type Error struct {
	Code string
	Path string
	Msg  string
}

func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// ErrorCode returns the stable code (see package tools).
func (e *Error) ErrorCode() string { return e.Code }

// ErrorPath returns the path as the model gave it.
func (e *Error) ErrorPath() string { return e.Path }

func errf(code, path, format string, args ...any) *Error {
	return &Error{Code: code, Path: path, Msg: fmt.Sprintf(format, args...)}
}
