package files

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"gatehouse/internal/patch"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools"
	"gatehouse/internal/workspace"
)

// maxPreviewContent is the largest old or new content a file preview
// carries whole; the diff is always there.
const maxPreviewContent = 512 << 10

// Prepare implements tools.Gated: a dry run of the write, whose hashes the
// later Run checks.
func (t *WriteFile) Prepare(_ context.Context, raw json.RawMessage) (*tools.Prepared, tools.Result, bool) {
	plan, r, ok := t.Preview(raw)
	if !ok {
		return nil, r, false
	}
	p := describe(t.ws, plan)
	p.Run = func(context.Context, protocol.Decision) (tools.Result, error) {
		return t.Apply(raw, plan)
	}
	return p, tools.Result{}, true
}

// Prepare implements tools.Gated: a dry run of the whole patch. Run applies
// it whole, or the files and hunks a partial decision chooses, and then
// tells the model what it skipped.
func (t *ApplyPatch) Prepare(_ context.Context, raw json.RawMessage) (*tools.Prepared, tools.Result, bool) {
	plan, r, ok := t.Preview(raw, nil)
	if !ok {
		return nil, r, false
	}
	p := describe(t.ws, plan)
	p.Partial = true
	p.Select = func(sel protocol.ProposalSelection) ([]protocol.FilePreview, error) {
		chosen, r, ok := t.Preview(raw, &patch.Selection{Files: sel.Files, Hunks: sel.Hunks})
		if !ok {
			return nil, fmt.Errorf("the chosen part of the patch does not apply: %s", r.Output)
		}
		return describe(t.ws, chosen).Files, nil
	}
	p.Run = func(_ context.Context, d protocol.Decision) (tools.Result, error) {
		if d.Kind != protocol.DecisionPartial {
			return t.Apply(raw, nil, plan)
		}
		res, err := t.Apply(raw, &patch.Selection{Files: d.Files, Hunks: d.Hunks}, plan)
		if err != nil || res.IsError {
			return res, err
		}
		return withSkipped(res, plan.Changes, d)
	}
	return p, tools.Result{}, true
}

// describe turns a plan into the preview and rule keys of a call. A change
// that starts from a file's content (an update, a delete, a move's
// source, a write over a file that exists) reads that file too: its diff,
// which the model is sent, shows what the file held. The plan names it in
// Reads, so a read deny or ask rule on it holds for the write as well.
func describe(ws *workspace.Workspace, plan *patch.Plan) *tools.Prepared {
	p := &tools.Prepared{Files: make([]protocol.FilePreview, 0, len(plan.Changes))}
	// key records the rule key of path (and that the call reads it) and
	// returns its preview hash and, when it differs from what the model
	// wrote, where it really is.
	key := func(path string, reads bool) (hash, resolved string) {
		if abs, err := ws.Resolve(path, workspace.Write); err == nil {
			rel := ws.Rel(abs)
			if !slices.Contains(p.Paths, rel) {
				p.Paths = append(p.Paths, rel)
			}
			if reads && !slices.Contains(p.Reads, rel) {
				p.Reads = append(p.Reads, rel)
			}
			if rel != strings.TrimPrefix(filepath.ToSlash(path), "./") {
				resolved = rel
			}
			return plan.Hashes()[abs], resolved
		}
		return "", ""
	}
	for i := range plan.Changes {
		c := &plan.Changes[i]
		fp := protocol.FilePreview{
			Path: c.Path, Operation: protocol.FileOperation(c.Operation), MovedFrom: c.MovedFrom,
			Added: c.LinesAdded, Removed: c.LinesRemoved, Diff: c.Diff,
			OldContent: c.OldContent, NewContent: c.NewContent,
			Replaces: c.Replaces, ReplacedDiff: c.ReplacedDiff,
		}
		fp.OldHash, fp.ResolvedPath = key(c.Path, c.Replaces || c.Operation == "update" || c.Operation == "delete")
		if c.MovedFrom != "" {
			fp.OldHash, fp.ResolvedFrom = key(c.MovedFrom, true)
		}
		if len(c.OldContent) > maxPreviewContent || len(c.NewContent) > maxPreviewContent {
			fp.OldContent, fp.NewContent, fp.ContentOmitted = "", "", true
		}
		for _, h := range c.Hunks {
			fp.Hunks = append(fp.Hunks, protocol.HunkPreview{
				ID: h.ID, OldStart: h.OldStart, OldLines: h.OldLines, NewStart: h.NewStart, NewLines: h.NewLines,
				Diff: c.HunkDiff(h),
			})
		}
		p.Files = append(p.Files, fp)
	}
	return p
}

// partialResult is apply_patch's result after a partial approval.
type partialResult struct {
	patchResult
	SkippedFiles []string `json:"skippedFiles"`
	SkippedHunks []string `json:"skippedHunks"`
	Note         string   `json:"note"`
}

// withSkipped adds to res what the user's selection left out of the full
// plan: whole files, and hunks of files applied in part.
func withSkipped(res tools.Result, all []patch.FileChange, d protocol.Decision) (tools.Result, error) {
	var out partialResult
	if err := json.Unmarshal(res.Output, &out.patchResult); err != nil {
		return res, err
	}
	out.SkippedFiles, out.SkippedHunks = []string{}, []string{}
	for _, c := range all {
		if slices.Contains(d.Files, c.Path) || c.MovedFrom != "" && slices.Contains(d.Files, c.MovedFrom) {
			continue
		}
		var skipped []string
		for _, h := range c.Hunks {
			if !slices.Contains(d.Hunks, h.ID) {
				skipped = append(skipped, h.ID)
			}
		}
		if len(skipped) == len(c.Hunks) {
			out.SkippedFiles = append(out.SkippedFiles, c.Path)
			continue
		}
		out.SkippedHunks = append(out.SkippedHunks, skipped...)
	}
	out.Note = "The user approved only part of this patch: the files in skippedFiles and the hunks in skippedHunks (path#n, the n-th @@ chunk of that file) were NOT applied; everything else was."
	return tools.OK(out)
}

var (
	_ tools.Gated = (*WriteFile)(nil)
	_ tools.Gated = (*ApplyPatch)(nil)
)
