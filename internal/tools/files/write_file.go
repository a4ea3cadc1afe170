package files

import (
	"context"
	_ "embed"
	"encoding/json"

	"gatehouse/internal/patch"
	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

//go:embed write_file.md
var writeFileDoc string

// WriteFile is the write_file tool.
type WriteFile struct{ ws *workspace.Workspace }

// NewWriteFile returns write_file working in ws.
func NewWriteFile(ws *workspace.Workspace) *WriteFile { return &WriteFile{ws: ws} }

// Spec implements tools.Tool.
func (t *WriteFile) Spec() tools.Spec {
	return tools.Spec{Name: "write_file", Description: writeFileDoc, Parameters: schema(`{
  "type": "object",
  "properties": {
    "path": {"type": "string", "description": "File path, relative to the workspace root"},
    "content": {"type": "string", "description": "The text to write"},
    "mode": {"type": "string", "enum": ["create", "overwrite", "append"], "description": "Default overwrite"}
  },
  "required": ["path", "content"],
  "additionalProperties": false
}`)}
}

type writeArgs struct {
	Path    string  `json:"path"`
	Content *string `json:"content"`
	Mode    string  `json:"mode"`
}

type writeResult struct {
	Path         string `json:"path"`
	ResolvedPath string `json:"resolvedPath"`
	Mode         string `json:"mode"`
	Created      bool   `json:"created"`
	Appended     bool   `json:"appended"`
	BytesWritten int    `json:"bytesWritten"`
	LinesAdded   int    `json:"linesAdded"`
	LinesRemoved int    `json:"linesRemoved"`
	// Diff is the unified diff of what changed in a file that existed; a
	// created file's diff would only repeat the content of the call.
	Diff string `json:"diff,omitempty"`
}

// Preview plans the call without writing: the approval dialog shows its
// diff, and Apply later re-checks the hashes it recorded. ok is false when
// the call cannot go ahead; r is then the error result to return.
func (t *WriteFile) Preview(raw json.RawMessage) (plan *patch.Plan, r tools.Result, ok bool) {
	var a writeArgs
	if r, ok := tools.DecodeArgs(raw, &a); !ok {
		return nil, r, false
	}
	if a.Content == nil {
		return nil, tools.Fail(tools.CodeInvalidArguments, "content is required (use \"\" to write an empty file)", a.Path), false
	}
	if a.Mode == "" {
		a.Mode = patch.WriteOverwrite
	}
	plan, err := patch.PlanWrite(t.ws, a.Path, *a.Content, a.Mode)
	if err != nil {
		return nil, tools.FailErr(err, tools.CodeIOError), false
	}
	return plan, tools.Result{}, true
}

// Run implements tools.Tool.
func (t *WriteFile) Run(ctx context.Context, raw json.RawMessage) (tools.Result, error) {
	return t.Apply(raw, nil)
}

// Apply writes the call, refusing with changed_since_preview when a file
// is not as an earlier preview showed it (nil: no earlier preview).
func (t *WriteFile) Apply(raw json.RawMessage, preview *patch.Plan) (tools.Result, error) {
	plan, r, ok := t.Preview(raw)
	if !ok {
		return r, nil
	}
	var a writeArgs
	_ = json.Unmarshal(raw, &a) // decoded strictly by Preview already
	if a.Mode == "" {
		a.Mode = patch.WriteOverwrite
	}
	abs, _ := t.ws.Resolve(a.Path, workspace.Write) // resolved by Preview already
	created := plan.Created(abs)
	if err := plan.Apply(preview); err != nil {
		return tools.FailErr(err, tools.CodeIOError), nil
	}
	res := writeResult{
		Path: t.ws.Rel(abs), ResolvedPath: abs, Mode: a.Mode,
		Created: created, Appended: a.Mode == patch.WriteAppend && !created,
		BytesWritten: len(*a.Content),
	}
	if len(plan.Changes) == 1 {
		c := plan.Changes[0]
		res.LinesAdded, res.LinesRemoved = c.LinesAdded, c.LinesRemoved
		if !created {
			res.Diff = c.Diff
		}
	}
	return tools.OK(res)
}
