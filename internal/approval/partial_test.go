//go:build linux

package approval_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/protocol"
)

func lines(from, to int) string {
	var b strings.Builder
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

const twoFilesPatch = `*** Begin Patch
*** Update File: f.txt
@@
 line 1
-line 2
+LINE 2
 line 3
@@
 line 18
-line 19
+LINE 19
 line 20
*** Update File: g.txt
@@
-g
+G
*** End Patch`

func TestSelectedHunkApprovalWritesOnlyThoseHunks(t *testing.T) {
	h := newHarness(t, approval.Safe, map[string]string{"f.txt": lines(1, 20), "g.txt": "g\n"})
	var preview protocol.Preview
	h.onRequest(func(p protocol.ApprovalRequestedPayload) (protocol.Decision, bool) {
		preview = p.Preview
		return protocol.Decision{Kind: protocol.DecisionPartial, Hunks: []string{"f.txt#2"}}, true
	})
	res, out := h.run(context.Background(), "apply_patch", fmt.Sprintf(`{"patch":%q}`, twoFilesPatch))
	if res.IsError {
		t.Fatalf("result %s", res.Output)
	}
	want := strings.Replace(lines(1, 20), "line 19", "LINE 19", 1)
	if got := h.read("f.txt"); got != want {
		t.Errorf("f.txt:\n%s", got)
	}
	if h.read("g.txt") != "g\n" {
		t.Errorf("g.txt changed: %q", h.read("g.txt"))
	}
	if fmt.Sprint(out["skippedFiles"]) != "[g.txt]" || fmt.Sprint(out["skippedHunks"]) != "[f.txt#1]" || out["note"] == nil {
		t.Errorf("the model is not told what was skipped: %s", res.Output)
	}

	// The preview the dialog got: both files, hunks with their own diffs,
	// hashes of what was read.
	if preview.Kind != protocol.PreviewFiles || !preview.Partial || len(preview.Files) != 2 {
		t.Fatalf("preview %+v", preview)
	}
	f := preview.Files[0]
	sum := sha256.Sum256([]byte(lines(1, 20)))
	if f.Path != "f.txt" || f.Operation != protocol.FileUpdate || f.Added != 2 || f.Removed != 2 ||
		f.OldHash != hex.EncodeToString(sum[:]) || f.OldContent != lines(1, 20) || !strings.Contains(f.Diff, "+LINE 19") {
		t.Errorf("file preview %+v", f)
	}
	if len(f.Hunks) != 2 || f.Hunks[1].ID != "f.txt#2" || f.Hunks[1].Diff != "@@ -18,3 +18,3 @@\n line 18\n-line 19\n+LINE 19\n line 20\n" {
		t.Errorf("hunks %+v", f.Hunks)
	}
}

func TestPartialWholeFile(t *testing.T) {
	h := newHarness(t, approval.Manual, map[string]string{"f.txt": lines(1, 20), "g.txt": "g\n"})
	h.answerAll(protocol.Decision{Kind: protocol.DecisionPartial, Files: []string{"g.txt"}})
	res, out := h.run(context.Background(), "apply_patch", fmt.Sprintf(`{"patch":%q}`, twoFilesPatch))
	if res.IsError || h.read("g.txt") != "G\n" || h.read("f.txt") != lines(1, 20) {
		t.Fatalf("%s; f.txt %q g.txt %q", res.Output, h.read("f.txt"), h.read("g.txt"))
	}
	if fmt.Sprint(out["skippedFiles"]) != "[f.txt]" {
		t.Errorf("skipped %v", out["skippedFiles"])
	}
}

func TestPreviewsOfEachKind(t *testing.T) {
	h := newHarness(t, approval.Manual, map[string]string{"old.txt": "o\n", "gone.txt": "bye\n"})
	var got []protocol.ApprovalRequestedPayload
	h.onRequest(func(p protocol.ApprovalRequestedPayload) (protocol.Decision, bool) {
		got = append(got, p)
		return protocol.Decision{Kind: protocol.DecisionReject}, true
	})
	patch := "*** Begin Patch\n*** Add File: new.txt\n+n\n*** Delete File: gone.txt\n*** Update File: old.txt\n*** Move to: moved.txt\n@@\n-o\n+m\n*** End Patch"
	h.run(context.Background(), "apply_patch", fmt.Sprintf(`{"patch":%q}`, patch))
	h.run(context.Background(), "bash", `{"action":"exec","command":"ls && rm -rf build","cwd":"."}`)
	h.run(context.Background(), "notify", `{"text":"hi"}`)
	if len(got) != 3 {
		t.Fatalf("%d requests", len(got))
	}
	ops := ""
	for _, f := range got[0].Preview.Files {
		ops += fmt.Sprintf("%s:%s:%s ", f.Operation, f.Path, f.MovedFrom)
	}
	if ops != "add:new.txt: delete:gone.txt: move:moved.txt:old.txt " {
		t.Errorf("ops %s", ops)
	}
	if r := got[0].Rule; r == nil || len(r.Files) != 4 {
		t.Errorf("rule %+v", r)
	}
	c := got[1].Preview.Command
	if got[1].Preview.Kind != protocol.PreviewCommand || c.Action != "exec" || c.Cwd != h.root || len(c.Segments) != 2 ||
		!c.Segments[1].Deletes || got[1].Rule != nil {
		t.Errorf("command preview %+v rule %+v", c, got[1].Rule)
	}
	a := got[2].Preview
	if a.Kind != protocol.PreviewArgs || a.ArgsText != "{\n  \"text\": \"hi\"\n}" || got[2].Rule == nil || got[2].Rule.Tool != "notify" {
		t.Errorf("args preview %+v", a)
	}
}
