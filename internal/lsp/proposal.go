package lsp

import (
	"context"
	"errors"
	"slices"
	"strings"

	"gatehouse/internal/protocol"
)

// Proposal checks the proposed content of a dry run's files in memory
// (overlays: nothing is written, and each document is set back to its
// content on disk before it returns) and says, per file, what the change
// would introduce compared with the files as they are (the approval gate
// places each in the dialog's hunks). State
// is "done", or "timeout"/"failed" with a note; files no server checks,
// deleted files and files whose content the preview omits are left out.
func (m *Manager) Proposal(ctx context.Context, files []protocol.FilePreview) protocol.ApprovalDiagnosticsPayload {
	out := protocol.ApprovalDiagnosticsPayload{State: "done"}
	proposed := map[string]*string{}
	byRel := map[string]protocol.FilePreview{}
	for _, f := range files {
		if f.Operation == protocol.FileDelete || f.ContentOmitted {
			continue
		}
		rel := first(f.ResolvedPath, f.Path)
		abs := m.Paths(rel)[0]
		if !m.Handles(abs) {
			continue
		}
		text := f.NewContent
		proposed[abs] = &text
		byRel[m.rel(abs)] = f
	}
	if len(proposed) == 0 {
		return out
	}
	disk := map[string]*string{}
	for abs := range proposed {
		disk[abs] = nil
	}
	before := m.Check(ctx, disk, false)
	after := Result{Files: map[string][]Diagnostic{}}
	if len(before.Files) > 0 && ctx.Err() == nil {
		after = m.Check(ctx, proposed, true)
	}
	d := Compare(before, after)
	if len(d.Problems) > 0 {
		out.State, out.Note = "failed", strings.Join(d.Problems, "; ")
		if strings.Contains(out.Note, "timed out") {
			out.State = "timeout"
		}
	}
	if errors.Is(ctx.Err(), context.Canceled) {
		out.State, out.Note = "failed", "the request was answered first"
	}
	for rel, f := range byRel {
		if !after.Checked(rel) || !before.Checked(rel) {
			continue
		}
		fd := protocol.FileDiagnostics{Path: f.Path, Introduced: []protocol.Diagnostic{}}
		for _, x := range d.Introduced {
			if x.Path == rel {
				fd.Introduced = append(fd.Introduced, x)
			}
		}
		out.Files = append(out.Files, fd)
	}
	slices.SortFunc(out.Files, func(a, b protocol.FileDiagnostics) int { return strings.Compare(a.Path, b.Path) })
	return out
}
