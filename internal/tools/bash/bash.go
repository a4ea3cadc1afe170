// Package bash is the bash tool: one-shot commands (exec) and the
// long-running processes of a session (start, status, logs, write, stop,
// list), run by a proc.Registry in folders checked by a DirResolver.
package bash

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"time"

	"gatehouse/internal/proc"
	"gatehouse/internal/tools"
)

//go:embed bash.md
var description string

//go:embed schema.json
var schema []byte

// Name is the tool's name as the model sees it.
const Name = "bash"

// DirResolver checks the folder a command starts in against the workspace
// boundary.
//
// ResolveDir returns the absolute path of dir: a relative dir is taken
// against the workspace root, "" and "." are the root. A folder the boundary
// refuses (outside the workspace, protected, missing, not a folder) gives an
// error that carries a stable code through an ErrorCode() string method (see
// tools.FailErr), and may carry the path through ErrorPath() string. It may be
// called concurrently.
type DirResolver interface {
	ResolveDir(dir string) (string, error)
}

// Config is what the tool needs. Registry and Dirs are required.
type Config struct {
	Registry *proc.Registry
	Dirs     DirResolver
	// DefaultTimeout and MaxTimeout bound exec (defaults 30 s and 10 min).
	DefaultTimeout, MaxTimeout time.Duration
	// Head and Tail are the bytes of each exec output stream kept for the
	// model, from its beginning and its end (defaults 8 KiB and 8 KiB).
	Head, Tail int
	// LogsLimit and LogsMax bound a logs page (defaults 16000 and 65536 bytes).
	LogsLimit, LogsMax int
}

// Tool is the bash tool. It implements tools.Tool and tools.CallClassifier.
type Tool struct{ c Config }

// New returns the bash tool of one session.
func New(c Config) *Tool {
	if c.Registry == nil || c.Dirs == nil {
		panic("bash.New: Registry and Dirs are required")
	}
	if c.DefaultTimeout <= 0 {
		c.DefaultTimeout = 30 * time.Second
	}
	if c.MaxTimeout <= 0 {
		c.MaxTimeout = 10 * time.Minute
	}
	if c.Head <= 0 {
		c.Head = 8 << 10
	}
	if c.Tail <= 0 {
		c.Tail = 8 << 10
	}
	if c.LogsLimit <= 0 {
		c.LogsLimit = 16000
	}
	if c.LogsMax <= 0 {
		c.LogsMax = 64 << 10
	}
	return &Tool{c: c}
}

// Spec is what the model sees. ReadOnly is false: status, logs and list are
// classified per call by ReadOnlyCall.
func (t *Tool) Spec() tools.Spec {
	return tools.Spec{Name: Name, Description: description, Parameters: schema}
}

// args holds every action's fields; a zero or null field counts as absent.
type args struct {
	Action    string  `json:"action"`
	Command   string  `json:"command"`
	Cwd       string  `json:"cwd"`
	TimeoutMs *int64  `json:"timeoutMs"`
	ProcessID string  `json:"processId"`
	Offset    *int64  `json:"offset"`
	Limit     *int    `json:"limit"`
	Input     *string `json:"input"`
}

// ReadOnlyCall: status, logs and list only read; anything else acts (an
// undecodable call counts as acting, so it asks).
func (t *Tool) ReadOnlyCall(raw json.RawMessage) bool {
	var a struct {
		Action string `json:"action"`
	}
	if json.Unmarshal(raw, &a) != nil {
		return false
	}
	switch a.Action {
	case "status", "logs", "list":
		return true
	}
	return false
}

// Run runs one call.
func (t *Tool) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	var a args
	if res, ok := tools.DecodeArgs(raw, &a); !ok {
		return res, nil
	}
	if res, ok := a.check(); !ok {
		return res, nil
	}
	switch a.Action {
	case "exec":
		return t.exec(ctx, a, false)
	case "start":
		return t.start(a, false)
	case "status":
		return t.status(a)
	case "list":
		return tools.OK(struct {
			Processes []proc.Info `json:"processes"`
		}{t.c.Registry.List()})
	case "logs":
		return t.logs(a)
	case "write":
		return t.write(a)
	default: // "stop", checked
		return t.stop(a)
	}
}

// check refuses a call missing a field its action needs, or giving one it
// does not use.
func (a *args) check() (tools.Result, bool) {
	given := map[string]bool{
		"command": a.Command != "", "cwd": a.Cwd != "", "timeoutMs": a.TimeoutMs != nil,
		"processId": a.ProcessID != "", "offset": a.Offset != nil, "limit": a.Limit != nil, "input": a.Input != nil,
	}
	var need, may []string
	switch a.Action {
	case "exec":
		need, may = []string{"command"}, []string{"cwd", "timeoutMs"}
	case "start":
		need, may = []string{"command"}, []string{"cwd"}
	case "status", "stop":
		need = []string{"processId"}
	case "logs":
		need, may = []string{"processId"}, []string{"offset", "limit"}
	case "write":
		need = []string{"processId", "input"}
	case "list":
	case "":
		return fail("missing action: one of exec, start, status, logs, write, stop, list"), false
	default:
		return fail(fmt.Sprintf("unknown action %q: use exec, start, status, logs, write, stop or list", a.Action)), false
	}
	for _, f := range need {
		if !given[f] {
			return fail(fmt.Sprintf("action %s needs %s", a.Action, f)), false
		}
		delete(given, f)
	}
	for _, f := range may {
		delete(given, f)
	}
	for _, f := range []string{"command", "cwd", "timeoutMs", "processId", "offset", "limit", "input"} {
		if given[f] {
			return fail(fmt.Sprintf("action %s does not take %s", a.Action, f)), false
		}
	}
	if a.TimeoutMs != nil && *a.TimeoutMs <= 0 || a.Offset != nil && *a.Offset < 0 || a.Limit != nil && *a.Limit <= 0 {
		return fail("timeoutMs and limit must be positive, offset not negative"), false
	}
	if a.Input != nil && *a.Input == "" {
		return fail("input is empty"), false
	}
	return tools.Result{}, true
}

func fail(msg string) tools.Result { return tools.Fail(tools.CodeInvalidArguments, msg, "") }

var (
	_ tools.Tool           = (*Tool)(nil)
	_ tools.CallClassifier = (*Tool)(nil)
)
