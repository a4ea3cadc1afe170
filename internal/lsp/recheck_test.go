//go:build linux

package lsp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/protocol"
)

// TestChoosingSomeHunksRechecksThemOnTheServer: unticking a hunk in the
// dialog has the server check the content the chosen hunks alone would
// write (not the whole proposal's diagnostics filtered): approval.diagnostics
// says "checking" for the choice, then only the chosen hunk's error, at the
// line it would have in the file as written and at its line in the diff the
// dialog shows (hunk 1, left out, would have added two lines above it).
// Approving that choice writes it, and the result the model reads names
// the same line. Nothing is written before.
func TestChoosingSomeHunksRechecksThemOnTheServer(t *testing.T) {
	m, root, _ := fakeManager(t, "plain", Options{})
	const orig = "one\ntwo\nthree\nfour\nfive\n"
	plant(t, root, map[string]string{"a.txt": orig})
	ws := openWorkspace(t, root)
	d := newDialog(t, ws, m, 5*time.Second)
	res := d.run("*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+BAD one\n+extra\n+extra2\n@@\n-four\n+BAD four\n*** End Patch")
	req := waitFor(t, d.asked, "approval request")
	waitFor(t, d.diags, "checking")
	whole := waitFor(t, d.diags, "diagnostics of the whole patch")
	if whole.State != "done" || whole.Selection != nil || len(whole.Files) != 1 ||
		whole.Files[0].Hunks["a.txt#1"] != 1 || whole.Files[0].Hunks["a.txt#2"] != 1 {
		t.Fatalf("whole: %+v", whole)
	}

	only2 := protocol.ProposalSelection{Hunks: []string{"a.txt#2"}}
	if err := d.gui.Recheck(req.ApprovalID, only2); err != nil {
		t.Fatal(err)
	}
	if p := waitFor(t, d.diags, "checking the choice"); p.State != "checking" || p.Selection == nil || !slices.Equal(p.Selection.Hunks, only2.Hunks) {
		t.Fatalf("checking: %+v", p)
	}
	p := waitFor(t, d.diags, "diagnostics of the choice")
	if p.State != "done" || p.Selection == nil || len(p.Files) != 1 {
		t.Fatalf("choice: %+v", p)
	}
	f := p.Files[0]
	if len(f.Introduced) != 1 || f.Hunks["a.txt#2"] != 1 || f.Hunks["a.txt#1"] != 0 {
		t.Fatalf("choice: %+v", f)
	}
	x := f.Introduced[0]
	if x.Line != 4 || x.Hunk != "a.txt#2" || x.ShownLine != 6 {
		t.Fatalf("placed at line %d, hunk %q, shown line %d; want 4, a.txt#2, 6", x.Line, x.Hunk, x.ShownLine)
	}

	// A choice of what the patch does not hold is refused.
	if err := d.gui.Recheck(req.ApprovalID, protocol.ProposalSelection{Hunks: []string{"a.txt#9"}}); err == nil {
		t.Fatal("a hunk the patch does not have was checked")
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != orig {
		t.Fatalf("written before approval: %q", b)
	}

	if err := d.gui.Resolve(req.ApprovalID, protocol.Decision{Kind: protocol.DecisionPartial, Hunks: only2.Hunks}); err != nil {
		t.Fatal(err)
	}
	r := waitFor(t, res, "result")
	if !strings.Contains(string(r.Output), "a.txt:4:1 error bad line") {
		t.Fatalf("result %s", r.Output)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "one\ntwo\nthree\nBAD four\nfive\n" {
		t.Fatalf("written %q", b)
	}
}
