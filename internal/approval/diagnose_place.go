package approval

import (
	"slices"

	"gatehouse/internal/protocol"
)

// place puts the introduced diagnostics of p where the approval dialog
// shows them, when checked is the dry run of sel (nil: all of shown, the
// whole proposal the dialog's diff draws): each gets the chosen hunk whose
// new lines hold it and its line in the shown diff (Diagnostic.Hunk,
// .ShownLine), and each file counts its errors by hunk (FileDiagnostics.Hunks).
// A hunk left out keeps the old lines in the checked content, so a problem
// there is in no chosen hunk and has no line in the shown diff; the lines
// after a hunk left out move by what that hunk would have added.
func place(p *protocol.ApprovalDiagnosticsPayload, shown, checked []protocol.FilePreview, sel *protocol.ProposalSelection) {
	find := func(fs []protocol.FilePreview, path string) *protocol.FilePreview {
		i := slices.IndexFunc(fs, func(f protocol.FilePreview) bool { return f.Path == path })
		if i < 0 {
			return nil
		}
		return &fs[i]
	}
	for i := range p.Files {
		fd := &p.Files[i]
		c, s := find(checked, fd.Path), find(shown, fd.Path)
		whole := sel == nil || c != nil && (slices.Contains(sel.Files, c.Path) || c.MovedFrom != "" && slices.Contains(sel.Files, c.MovedFrom))
		chosen := func(id string) bool { return whole || slices.Contains(sel.Hunks, id) }
		fd.Hunks = nil
		for j := range fd.Introduced {
			x := &fd.Introduced[j]
			x.Hunk, x.ShownLine = "", x.Line
			if c != nil && s != nil {
				x.Hunk, x.ShownLine = locate(x.Line, c.Hunks, s.Hunks, chosen)
			}
			if x.Severity != "error" {
				continue
			}
			if fd.Hunks == nil {
				fd.Hunks = map[string]int{}
			}
			fd.Hunks[x.Hunk]++
		}
	}
}

// locate is the chosen hunk of checked that holds line ("" for none) and
// the line's number in the new side of the shown diff (0: not shown).
func locate(line int, checked, shown []protocol.HunkPreview, chosen func(string) bool) (hunk string, shownLine int) {
	byID := func(id string) *protocol.HunkPreview {
		i := slices.IndexFunc(shown, func(h protocol.HunkPreview) bool { return h.ID == id })
		if i < 0 {
			return nil
		}
		return &shown[i]
	}
	hs := slices.Clone(checked)
	slices.SortFunc(hs, func(a, b protocol.HunkPreview) int { return a.NewStart - b.NewStart })
	shift := 0
	for _, h := range hs {
		sh := byID(h.ID)
		if line >= h.NewStart && line < h.NewStart+max(h.NewLines, 1) {
			if !chosen(h.ID) || sh == nil {
				return "", 0
			}
			return h.ID, sh.NewStart + line - h.NewStart
		}
		if end := h.NewStart + h.NewLines; end <= line && sh != nil {
			shift = sh.NewStart + sh.NewLines - end
		}
	}
	return "", line + shift
}
