package review

import (
	"strings"

	"gatehouse/internal/gitview"
	"gatehouse/internal/protocol"
)

// Diff is a diff read already, for a target git does not hold: the files
// and the text the reviewer is sent.
type Diff struct {
	Files []gitview.FileDiff
	Raw   string
}

// TurnDiff is what one turn wrote, from its undo plan (each file's content
// before and after the turn, the undo store's): the files in git's diff
// format, so findings anchor to their hunks as in any other review. A file
// the turn created is added, one it deleted is deleted, a binary one is
// named without lines; a file whose change is not known is left out.
func TurnDiff(plan []protocol.UndoFile) Diff {
	var b strings.Builder
	for _, f := range plan {
		if f.TurnDiff == "" && !f.Binary {
			continue
		}
		a, bb := gitview.QuotePath("a/"+f.Path), gitview.QuotePath("b/"+f.Path)
		b.WriteString("diff --git " + a + " " + bb + "\n")
		// Operation is what undoing does: deleting a file the turn created,
		// adding back one it deleted.
		switch f.Operation {
		case protocol.FileDelete:
			b.WriteString("new file mode 100644\n")
		case protocol.FileAdd:
			b.WriteString("deleted file mode 100644\n")
		}
		if f.Binary {
			b.WriteString("Binary files " + a + " and " + bb + " differ\n")
			continue
		}
		b.WriteString(f.TurnDiff)
		if !strings.HasSuffix(f.TurnDiff, "\n") {
			b.WriteString("\n")
		}
	}
	files := gitview.ParseDiff(b.String())
	if files == nil {
		files = []gitview.FileDiff{}
	}
	return Diff{Files: files, Raw: b.String()}
}
