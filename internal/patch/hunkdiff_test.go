package patch

import (
	"strings"
	"testing"
)

func TestHunkDiff(t *testing.T) {
	old := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"
	_, ws := newWS(t, map[string][]byte{"f.txt": []byte(old)})
	p := mustParse(t, "*** Begin Patch\n*** Update File: f.txt\n@@\n a\n-b\n+B\n c\n@@\n k\n-l\n+L\n*** End Patch")
	plan, err := Preview(ws, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := plan.Changes[0]
	if len(c.Hunks) != 2 {
		t.Fatalf("hunks %+v", c.Hunks)
	}
	want := []string{"@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n", "@@ -11,2 +11,2 @@\n k\n-l\n+L\n"}
	for i, h := range c.Hunks {
		if got := c.HunkDiff(h); got != want[i] {
			t.Errorf("hunk %s:\n%s\nwant\n%s", h.ID, got, want[i])
		}
	}
	if !strings.Contains(c.Diff, "+B") || !strings.Contains(c.Diff, "+L") {
		t.Errorf("diff %s", c.Diff)
	}
}
