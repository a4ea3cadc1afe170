package patch

import "testing"

func TestUnifiedDiffExported(t *testing.T) {
	d, add, del := UnifiedDiff("a.txt", "a.txt", "one\ntwo\n", "one\n2\n", false, false)
	want := "--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n"
	if d != want || add != 1 || del != 1 {
		t.Fatalf("got %q %d %d, want %q", d, add, del, want)
	}
	if d, _, _ := UnifiedDiff("n", "n", "", "x\n", true, false); d != "--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+x\n" {
		t.Fatalf("added file: %q", d)
	}
	if d, _, _ := UnifiedDiff("s", "s", "same", "same", false, false); d != "" {
		t.Fatalf("no change: %q", d)
	}
}
