package usercmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoadAndExpand(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("review.md", "---\ndescription: Review a file\n---\nReview $ARGUMENTS for bugs.\nBe brief about $ARGUMENTS.\n")
	write("explain.md", "# Explain the code\nExplain it simply.")
	write("compact.md", "not allowed")
	write("Bad Name.md", "x")
	write("notes.txt", "ignored")
	write("huge.md", strings.Repeat("x", MaxBytes+1))
	os.Symlink(filepath.Join(dir, "review.md"), filepath.Join(dir, "link.md"))
	cmds, errs := Load(dir)
	if len(cmds) != 3 || cmds[0].Name != "compact" || cmds[1].Name != "explain" || cmds[2].Name != "review" {
		t.Fatalf("commands %+v", cmds)
	}
	if len(errs) != 3 {
		t.Errorf("errors %v", errs)
	}
	if cmds[2].Description != "Review a file" || cmds[1].Description != "Explain the code" {
		t.Errorf("descriptions %q %q", cmds[2].Description, cmds[1].Description)
	}
	if got := cmds[2].Expand(" src/main.go "); got != "Review src/main.go for bugs.\nBe brief about src/main.go." {
		t.Errorf("expanded %q", got)
	}
	if got := cmds[1].Expand("main.go"); got != "# Explain the code\nExplain it simply.\n\nmain.go" {
		t.Errorf("appended %q", got)
	}
	if none, errs := Load(filepath.Join(dir, "missing")); none != nil || errs != nil {
		t.Errorf("a missing folder: %v %v", none, errs)
	}
}
