package files

import (
	"context"
	_ "embed"
	"encoding/json"

	"gatehouse/internal/patch"
	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

//go:embed apply_patch.md
var applyPatchDoc string

// ApplyPatch is the apply_patch tool.
type ApplyPatch struct{ ws *workspace.Workspace }

// NewApplyPatch returns apply_patch working in ws.
func NewApplyPatch(ws *workspace.Workspace) *ApplyPatch { return &ApplyPatch{ws: ws} }

// Spec implements tools.Tool.
func (t *ApplyPatch) Spec() tools.Spec {
	return tools.Spec{Name: "apply_patch", Description: applyPatchDoc, Parameters: schema(`{
  "type": "object",
  "properties": {
    "patch": {"type": "string", "description": "The patch text, from *** Begin Patch to *** End Patch"}
  },
  "required": ["patch"],
  "additionalProperties": false
}`)}
}

type patchArgs struct {
	Patch string `json:"patch"`
}

type patchResult struct {
	FilesChanged      int          `json:"filesChanged"`
	OperationsApplied int          `json:"operationsApplied"`
	FileChanges       []fileChange `json:"fileChanges"`
}

type fileChange struct {
	Path         string `json:"path"`
	Operation    string `json:"operation"`
	MovedFrom    string `json:"movedFrom,omitempty"`
	LinesAdded   int    `json:"linesAdded"`
	LinesRemoved int    `json:"linesRemoved"`
	Diff         string `json:"diff"`
	// Replaced: the operation wrote over a file that existed.
	Replaced bool `json:"replaced,omitempty"`
}

// Preview plans the call (or the part sel chooses; nil: all of it) without
// writing. ok is false when the patch cannot apply; r is then the error
// result to return.
func (t *ApplyPatch) Preview(raw json.RawMessage, sel *patch.Selection) (plan *patch.Plan, r tools.Result, ok bool) {
	var a patchArgs
	if r, ok := tools.DecodeArgs(raw, &a); !ok {
		return nil, r, false
	}
	return t.preview(a.Patch, sel)
}

func (t *ApplyPatch) preview(text string, sel *patch.Selection) (plan *patch.Plan, r tools.Result, ok bool) {
	p, err := patch.Parse(text)
	if err != nil {
		return nil, failNothingChanged(err, tools.CodePatchParse), false
	}
	plan, err = patch.Preview(t.ws.Batch(), p, sel)
	if err != nil {
		return nil, failNothingChanged(err, tools.CodeIOError), false
	}
	return plan, tools.Result{}, true
}

// Run implements tools.Tool.
func (t *ApplyPatch) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	return t.Apply(raw, nil, nil)
}

// RunText implements tools.TextRunner: text is the patch.
func (t *ApplyPatch) RunText(_ context.Context, text string) (tools.Result, error) {
	plan, r, ok := t.preview(text, nil)
	if !ok {
		return r, nil
	}
	return t.apply(plan, nil)
}

// Apply applies the part of the call sel chooses (nil: all), refusing with
// changed_since_preview when a file is not as an earlier preview showed it
// (nil: no earlier preview).
func (t *ApplyPatch) Apply(raw json.RawMessage, sel *patch.Selection, preview *patch.Plan) (tools.Result, error) {
	plan, r, ok := t.Preview(raw, sel)
	if !ok {
		return r, nil
	}
	return t.apply(plan, preview)
}

func (t *ApplyPatch) apply(plan *patch.Plan, preview *patch.Plan) (tools.Result, error) {
	if err := plan.Apply(preview); err != nil {
		return tools.FailErr(err, tools.CodeIOError), nil
	}
	res := patchResult{FilesChanged: plan.FilesChanged(), OperationsApplied: len(plan.Changes), FileChanges: []fileChange{}}
	for _, c := range plan.Changes {
		res.FileChanges = append(res.FileChanges, fileChange{
			Path: c.Path, Operation: c.Operation, MovedFrom: c.MovedFrom,
			LinesAdded: c.LinesAdded, LinesRemoved: c.LinesRemoved, Diff: c.Diff, Replaced: c.Replaces,
		})
	}
	return tools.OK(res)
}

// failNothingChanged is the error result of a patch refused before any
// write: it says so, so the model knows to send the whole patch again.
func failNothingChanged(err error, fallback string) tools.Result {
	return tools.FailErr(&nothingChanged{err}, fallback)
}

type nothingChanged struct{ err error }

func (e *nothingChanged) Error() string { return e.err.Error() + "\nNo file was modified." }
func (e *nothingChanged) Unwrap() error { return e.err }

var _ tools.TextRunner = (*ApplyPatch)(nil)
