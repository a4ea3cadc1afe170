package watch

import (
	"context"
	"encoding/json"

	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// Resolver is the workspace boundary; *workspace.Workspace implements it.
type Resolver interface {
	Resolve(path string, access workspace.Access) (string, error)
}

// Middleware tells the tracker what the agent's tools do: the files a
// call's plan says it changes (write_file, apply_patch; their baselines are
// read just before), the files read_file reads, and when a shell command
// runs (a bash call that runs one: not status, logs or list).
//
// Place it inside the approval middleware (listed after it), next to the
// executor: the time a call waits for the user must not count as the
// agent's, or the user's own edits meanwhile would be taken for the shell's.
func (t *Tracker) Middleware(ws Resolver) tools.Middleware {
	return func(tool tools.Tool, next tools.Handler) tools.Handler {
		name := tool.Spec().Name
		return func(ctx context.Context, call tools.Call) (tools.Result, error) {
			switch p := call.Plan; {
			case p != nil && p.Runs():
				defer t.ShellStarted()()
			case p != nil && p.Mcp == nil && len(p.Paths) > 0:
				done := t.Writing(t.resolveAll(ws, p.Paths))
				defer done()
			case name == "read_file":
				res, err := next(ctx, call)
				if err == nil && !res.IsError {
					t.Read(t.resolveAll(ws, readPath(call.Args))...)
				}
				return res, err
			}
			return next(ctx, call)
		}
	}
}

// readPath is the path read_file's arguments name, as the model wrote it.
func readPath(args json.RawMessage) []string {
	var a struct {
		Path string `json:"path"`
	}
	if json.Unmarshal(args, &a) == nil && a.Path != "" {
		return []string{a.Path}
	}
	return nil
}

// resolveAll resolves paths through the boundary to workspace-relative
// ones, dropping those it refuses (the tool refuses them too).
func (t *Tracker) resolveAll(ws Resolver, paths []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		abs, err := ws.Resolve(p, workspace.Read)
		if err != nil {
			continue
		}
		if rel, ok := t.Rel(abs); ok && !seen[rel] {
			seen[rel] = true
			out = append(out, rel)
		}
	}
	return out
}
