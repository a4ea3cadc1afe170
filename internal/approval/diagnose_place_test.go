package approval

import (
	"testing"

	"gatehouse/internal/protocol"
)

// TestPlaceFindsEachProblemInTheShownDiff: a problem of a partial check is
// counted to the chosen hunk that holds it and placed at its line in the
// whole proposal's diff; one in the old lines a hunk left out keeps is in
// no hunk and not shown; one below a hunk left out moves by what that hunk
// would add; a whole-file write keeps its lines.
func TestPlaceFindsEachProblemInTheShownDiff(t *testing.T) {
	// The whole proposal: hunk 1 turns line 2 into 4 lines, hunk 2 changes line 8.
	shown := []protocol.FilePreview{
		{Path: "a.go", Hunks: []protocol.HunkPreview{{ID: "a.go#1", OldStart: 2, OldLines: 1, NewStart: 2, NewLines: 4}, {ID: "a.go#2", OldStart: 8, OldLines: 1, NewStart: 11, NewLines: 1}}},
		{Path: "new.go"},
	}
	// Only hunk 2 chosen: hunk 1's place holds the old line.
	checked := []protocol.FilePreview{
		{Path: "a.go", Hunks: []protocol.HunkPreview{{ID: "a.go#1", OldStart: 2, OldLines: 1, NewStart: 2, NewLines: 1}, {ID: "a.go#2", OldStart: 8, OldLines: 1, NewStart: 8, NewLines: 1}}},
		{Path: "new.go"},
	}
	diag := func(line int, sev string) protocol.Diagnostic {
		return protocol.Diagnostic{Line: line, Severity: sev, Message: "m"}
	}
	p := protocol.ApprovalDiagnosticsPayload{State: "done", Files: []protocol.FileDiagnostics{
		{Path: "a.go", Introduced: []protocol.Diagnostic{diag(8, "error"), diag(2, "error"), diag(5, "warning"), diag(1, "error")}},
		{Path: "new.go", Introduced: []protocol.Diagnostic{diag(3, "error")}},
	}}
	place(&p, shown, checked, &protocol.ProposalSelection{Hunks: []string{"a.go#2"}, Files: []string{"new.go"}})
	want := []struct {
		hunk  string
		shown int
	}{{"a.go#2", 11}, {"", 0}, {"", 8}, {"", 1}}
	for i, w := range want {
		if x := p.Files[0].Introduced[i]; x.Hunk != w.hunk || x.ShownLine != w.shown {
			t.Errorf("line %d: hunk %q shown %d; want %q %d", x.Line, x.Hunk, x.ShownLine, w.hunk, w.shown)
		}
	}
	if h := p.Files[0].Hunks; h["a.go#2"] != 1 || h["a.go#1"] != 0 || h[""] != 2 {
		t.Errorf("counts %v", h)
	}
	if x := p.Files[1].Introduced[0]; x.Hunk != "" || x.ShownLine != 3 {
		t.Errorf("whole-file write: %+v", x)
	}

	// The whole proposal checked: every hunk is chosen, lines as they are.
	p = protocol.ApprovalDiagnosticsPayload{State: "done", Files: []protocol.FileDiagnostics{{Path: "a.go", Introduced: []protocol.Diagnostic{diag(4, "error")}}}}
	place(&p, shown, shown, nil)
	if x := p.Files[0].Introduced[0]; x.Hunk != "a.go#1" || x.ShownLine != 4 || p.Files[0].Hunks["a.go#1"] != 1 {
		t.Errorf("whole: %+v %v", x, p.Files[0].Hunks)
	}
}
