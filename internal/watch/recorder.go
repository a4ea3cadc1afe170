package watch

import (
	"context"
	"encoding/json"

	"gatehouse/internal/patch"
	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// Resolver is the workspace boundary; *workspace.Workspace implements it.
type Resolver interface {
	Resolve(path string, access workspace.Access) (string, error)
}

// Middleware tells the tracker what the agent's tools do: the files
// write_file and apply_patch write (their baselines are read just before),
// the files read_file reads, and when a shell command runs (bash calls that
// act; status, logs and list do not count).
//
// Place it inside the approval middleware (listed after it), next to the
// executor: the time a call waits for the user must not count as the
// agent's, or the user's own edits meanwhile would be taken for the shell's.
func (t *Tracker) Middleware(ws Resolver) tools.Middleware {
	return func(tool tools.Tool, next tools.Handler) tools.Handler {
		name := tool.Spec().Name
		return func(ctx context.Context, call tools.Call) (tools.Result, error) {
			switch name {
			case "write_file", "apply_patch":
				done := t.Writing(t.resolveAll(ws, writtenPaths(name, call.Args)))
				defer done()
			case "bash":
				if cc, ok := tool.(tools.CallClassifier); !ok || !cc.ReadOnlyCall(call.Args) {
					defer t.ShellStarted()()
				}
			case "read_file":
				res, err := next(ctx, call)
				if err == nil && !res.IsError {
					t.Read(t.resolveAll(ws, writtenPaths(name, call.Args))...)
				}
				return res, err
			}
			return next(ctx, call)
		}
	}
}

// writtenPaths lists the paths a call names, as the model wrote them.
func writtenPaths(tool string, args json.RawMessage) []string {
	switch tool {
	case "write_file", "read_file":
		var a struct {
			Path string `json:"path"`
		}
		if json.Unmarshal(args, &a) == nil && a.Path != "" {
			return []string{a.Path}
		}
	case "apply_patch":
		var a struct {
			Patch string `json:"patch"`
		}
		if json.Unmarshal(args, &a) != nil {
			return nil
		}
		p, err := patch.Parse(a.Patch)
		if err != nil {
			return nil
		}
		var out []string
		for _, op := range p.Ops {
			out = append(out, op.Path)
			if op.MoveTo != "" {
				out = append(out, op.MoveTo)
			}
		}
		return out
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
