// Package tools holds the contract every tool of Gatehouse implements, and the
// registry, policy filter and middleware chain around it (see DESIGN.md, "The
// five layers of a tool call").
//
// Error channels: a failure the model should read (file not found, patch does
// not apply, a path outside the workspace) is a Result with IsError set and a
// JSON body {ok:false, error:{code, message, path?}}. A non-nil Go error from
// Run means the infrastructure failed (disk full while writing a temp file is
// still a Result; a broken pipe to the model server is an error).
package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"time"

	"gatehouse/internal/images"
	"gatehouse/internal/protocol"
)

// Spec is what the model sees of a tool.
type Spec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"` // a JSON Schema object
	// ReadOnly declares that every call of the tool only reads: the safe
	// approval mode runs such calls without asking.
	ReadOnly bool `json:"readOnly"`
}

// Tool runs calls of one tool.
//
// Run must return promptly once ctx is cancelled, must not keep args after it
// returns, and may be called concurrently for different calls.
type Tool interface {
	Spec() Spec
	Run(ctx context.Context, args json.RawMessage) (Result, error)
}

// CallClassifier is implemented by tools whose read-only-ness depends on the
// arguments of a call (bash: status/logs/list read, exec/start/write/stop act).
// When implemented it takes precedence over Spec().ReadOnly.
type CallClassifier interface {
	ReadOnlyCall(args json.RawMessage) bool
}

// TextRunner is implemented by tools whose arguments are one text, taken
// as is by the headless `gatehouse tool` from stdin (apply_patch's patch).
// RunText(ctx, text) must do what Run does with the arguments holding text,
// without the JSON round trip.
type TextRunner interface {
	RunText(ctx context.Context, text string) (Result, error)
}

// Result is the outcome of one call as the model reads it.
type Result struct {
	// Output is one JSON document, never cut in half.
	Output json.RawMessage `json:"output"`
	// IsError marks a failure the model should read and react to.
	IsError bool `json:"isError"`
	// Rejected is set only by the approval gate: the user said no. The agent
	// loop stops the turn with blocked_by_approval when it sees it.
	Rejected bool `json:"rejected,omitempty"`
	// Note is the user's note with a rejection (empty when none); the turn's
	// end says it beside the rejected tool.
	Note string `json:"note,omitempty"`
	// Approval and Waited are set by the approval gate, for the host; the
	// model never reads them. Approval says how a call that asked went
	// ahead (nil: nothing asked); Waited is how long it waited for the
	// user, which the host leaves out of the call's run time.
	Approval *protocol.CallApproval `json:"-"`
	Waited   time.Duration          `json:"-"`
	// Throttled is how long the call waited for the session's
	// calls-per-minute limit before it ran (set by the budget stage), also
	// left out of its run time.
	Throttled time.Duration `json:"-"`
	// Images are pictures the model is shown with Output (view_image),
	// already saved in the session's image store under their ID.
	Images []images.Image `json:"-"`
	// Hooks are the user's hooks that ran on the call and Rewrite a
	// PreToolUse hook's rewrite of its input (set by the hooks stage), for
	// the host's card; the model never reads them.
	Hooks   []protocol.HookRun    `json:"-"`
	Rewrite *protocol.HookRewrite `json:"-"`
	// Plan is set only by propose_plan: the agent ends the turn with it
	// (turn.stopped's plan) for the user to approve; the model never reads
	// this field.
	Plan string `json:"-"`
	// HiddenByPolicy counts the entries the user's policy left out of
	// this result (list_dir, glob, grep), for the audit log; the model
	// reads the count in Output.
	HiddenByPolicy int `json:"-"`
}

// FailCode is the code of error result r ("" for a result that is not an
// error or carries no code).
func (r Result) FailCode() string {
	if !r.IsError {
		return ""
	}
	var body struct {
		Error Error `json:"error"`
	}
	if json.Unmarshal(r.Output, &body) != nil {
		return ""
	}
	return body.Error.Code
}

// Stable error codes of error results. Extend, don't rename: scripts match them.
const (
	CodeInvalidArguments     = "invalid_arguments"
	CodeOutsideWorkspace     = "outside_workspace"
	CodeProtectedPath        = "protected_path"
	CodeReadOnlyRoot         = "read_only_root"
	CodeSymlinkLoop          = "symlink_loop"
	CodeNotFound             = "not_found"
	CodeAlreadyExists        = "already_exists"
	CodeIsDirectory          = "is_directory"
	CodeNotDirectory         = "not_directory"
	CodeBinaryFile           = "binary_file"
	CodePatchParse           = "patch_parse_error"
	CodePatchContextNotFound = "patch_context_not_found"
	CodeChangedSincePreview  = "changed_since_preview"
	CodeUnknownProcess       = "unknown_process"
	CodeTimeout              = "timeout"
	CodeApprovalRejected     = "approval_rejected"
	CodePolicyDenied         = "policy_denied"
	CodeIOError              = "io_error"
	CodeUnknownTool          = "unknown_tool"
	CodeToolNotAllowed       = "tool_not_allowed"
	CodeNotRun               = "not_run"
	CodeProcessNotRunning    = "process_not_running"
	CodeNotRegular           = "not_regular_file"
	CodeWorkspaceGone        = "workspace_gone"
)

// Error is the body of an error result.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Path    string `json:"path,omitempty"`
}

func (e *Error) Error() string { return e.Message }

// ErrorCode lets errors from other packages (workspace, patch, proc) carry a
// stable code without importing this package.
type coder interface{ ErrorCode() string }
type pather interface{ ErrorPath() string }

// OK marshals v as a successful result.
func OK(v any) (Result, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return Result{}, err
	}
	return Result{Output: b}, nil
}

// Fail builds an error result the model reads.
func Fail(code, message, path string) Result {
	body := struct {
		OK    bool  `json:"ok"`
		Error Error `json:"error"`
	}{false, Error{Code: code, Message: message, Path: path}}
	b, _ := json.Marshal(body) // cannot fail: strings only
	return Result{Output: b, IsError: true}
}

// FailErr builds an error result from err, taking its code and path when the
// error (or one it wraps) carries them, and fallback otherwise.
func FailErr(err error, fallback string) Result {
	code, path := fallback, ""
	var c coder
	if errors.As(err, &c) {
		code = c.ErrorCode()
	}
	var p pather
	if errors.As(err, &p) {
		path = p.ErrorPath()
	}
	return Fail(code, err.Error(), path)
}

// DecodeArgs unmarshals args strictly (unknown fields refused) and returns an
// invalid_arguments result the model can read when they do not fit.
func DecodeArgs(args json.RawMessage, v any) (Result, bool) {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return Fail(CodeInvalidArguments, "invalid arguments: "+err.Error(), ""), false
	}
	return Result{}, true
}
