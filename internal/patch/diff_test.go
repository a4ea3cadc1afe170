package patch

import (
	"strings"
	"testing"
)

// sides rebuilds both contents from a line diff.
func sides(lines []diffLine) (string, string) {
	var a, b strings.Builder
	for _, l := range lines {
		text := l.text
		if l.eol {
			text += "\n"
		}
		if l.op != opInsert {
			a.WriteString(text)
		}
		if l.op != opDelete {
			b.WriteString(text)
		}
	}
	return a.String(), b.String()
}

func TestRegionDiffRebuildsBothSides(t *testing.T) {
	cases := []struct{ content, patch string }{
		{"a\nb\nc\n", "@@\n-a\n+A\n@@\n c\n+d"},
		{"a\nb\nc", "@@\n b\n-c\n+C\n*** End of File"},
		{"a\nb\nc", "@@\n-a\n+A"},
		{"a\r\nb\r\n", "@@\n-b\n+B\n+B2"},
		{"x\ny\n", "@@\n x\n y"},
		{"", "@@\n+first"},
		{"only\n", "@@\n-only"},
	}
	for _, c := range cases {
		p := mustParse(t, "*** Begin Patch\n*** Update File: f\n"+c.patch+"\n*** End Patch")
		got, _, lines, err := applyChunks(&p.Ops[0], c.content, nil)
		if err != nil {
			t.Fatalf("%q: %v", c.patch, err)
		}
		a, b := sides(lines)
		if a != c.content || b != got {
			t.Errorf("%q on %q: diff sides %q / %q, want %q / %q", c.patch, c.content, a, b, c.content, got)
		}
	}
}

func TestUnifiedDiffNoFinalNewline(t *testing.T) {
	d, add, del := unifiedDiff("f", "f", lineDiff("a\nb", "a\nc"), false, false)
	want := "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"
	if d != want || add != 1 || del != 1 {
		t.Errorf("diff =\n%s(+%d -%d)\nwant\n%s", d, add, del, want)
	}
	if d, _, _ := unifiedDiff("f", "f", lineDiff("", "x\n"), true, false); !strings.HasPrefix(d, "--- /dev/null\n+++ b/f\n@@ -0,0 +1 @@\n+x\n") {
		t.Errorf("add diff = %q", d)
	}
}
