package files

import (
	"context"
	"encoding/json"

	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// The reading tools are planned like every other: the plan names the path
// a call reads (resolved, a symlink to .env is .env), so the gate decides a
// read deny or ask rule from it, in every mode. The executor resolves the
// path again, through the boundary's deny predicate: a denied path is
// refused there too, whichever route reaches it.

// planRead is the plan of a call of run that reads the path named by the
// "path" argument of raw (dflt when empty).
func planRead(ws *workspace.Workspace, raw json.RawMessage, dflt string, run func(context.Context, json.RawMessage) (tools.Result, error)) (*tools.Prepared, tools.Result, bool) {
	var a struct {
		Path string `json:"path"`
	}
	// Other arguments are the executor's to check: decoded loosely here.
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, tools.Fail(tools.CodeInvalidArguments, "invalid arguments: "+err.Error(), ""), false
		}
	}
	if a.Path == "" {
		a.Path = dflt
	}
	p := &tools.Prepared{Run: func(ctx context.Context, _ protocol.Decision) (tools.Result, error) { return run(ctx, raw) }}
	if a.Path == "" {
		return p, tools.Result{}, true // the executor says what is missing
	}
	abs, err := ws.ResolveForPlan(a.Path, workspace.Read)
	if err != nil {
		return nil, tools.FailErr(err, tools.CodeIOError), false
	}
	p.Reads = []string{ws.Rel(abs)}
	return p, tools.Result{}, true
}

// Prepare implements tools.Gated: the file it reads.
func (t *ReadFile) Prepare(_ context.Context, raw json.RawMessage) (*tools.Prepared, tools.Result, bool) {
	return planRead(t.ws, raw, "", t.Run)
}

// Prepare implements tools.Gated: the image it reads.
func (t *ViewImage) Prepare(_ context.Context, raw json.RawMessage) (*tools.Prepared, tools.Result, bool) {
	return planRead(t.ws, raw, "", t.Run)
}

// Prepare implements tools.Gated: the folder it lists.
func (t *ListDir) Prepare(_ context.Context, raw json.RawMessage) (*tools.Prepared, tools.Result, bool) {
	return planRead(t.ws, raw, ".", t.Run)
}

// Prepare implements tools.Gated: the folder it searches.
func (t *Glob) Prepare(_ context.Context, raw json.RawMessage) (*tools.Prepared, tools.Result, bool) {
	return planRead(t.ws, raw, ".", t.Run)
}

// Prepare implements tools.Gated: the folder or file it searches.
func (t *Grep) Prepare(_ context.Context, raw json.RawMessage) (*tools.Prepared, tools.Result, bool) {
	return planRead(t.ws, raw, ".", t.Run)
}

var (
	_ tools.Gated = (*ReadFile)(nil)
	_ tools.Gated = (*ViewImage)(nil)
	_ tools.Gated = (*ListDir)(nil)
	_ tools.Gated = (*Glob)(nil)
	_ tools.Gated = (*Grep)(nil)
)
