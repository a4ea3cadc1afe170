package instructions

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func tree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, body := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestOrderUserRootThenNestedWhenTouched(t *testing.T) {
	ws, conf := t.TempDir(), t.TempDir()
	tree(t, conf, map[string]string{"AGENTS.md": "USER-RULES"})
	tree(t, ws, map[string]string{
		"AGENTS.md":             "ROOT-RULES",
		"CLAUDE.md":             "ROOT-CLAUDE (not read: AGENTS.md is here)",
		"api/AGENTS.md":         "API-RULES",
		"api/v2/CLAUDE.md":      "V2-CLAUDE",
		"api/v2/handler.go":     "package v2",
		"web/AGENTS.md":         "WEB-RULES",
		"api/v2/deep/x/f.txt":   "x",
		"api/v2/deep/AGENTS.md": "DEEP",
	})
	s := New(ws, conf)
	p := s.Prompt()
	if u, r := strings.Index(p, "USER-RULES"), strings.Index(p, "ROOT-RULES"); u < 0 || r < u {
		t.Fatalf("user then root: %q", p)
	}
	if strings.Contains(p, "ROOT-CLAUDE") || strings.Contains(p, "API-RULES") {
		t.Errorf("CLAUDE.md beside AGENTS.md, or a subfolder's, in the prompt: %q", p)
	}
	if len(s.Notes()) != 0 {
		t.Errorf("notes before anything was touched")
	}
	s.Touched("api/v2/handler.go")
	notes := s.Notes()
	if len(notes) != 2 || !strings.Contains(notes[0], "API-RULES") || !strings.Contains(notes[0], "folder api/") ||
		!strings.Contains(notes[1], "V2-CLAUDE") || !strings.Contains(notes[1], "api/v2/ (api/v2/CLAUDE.md)") {
		t.Fatalf("nested, outermost first, CLAUDE.md where no AGENTS.md: %q", notes)
	}
	s.Touched("api/v2/other.go")
	if n := s.Notes(); len(n) != 0 {
		t.Errorf("told twice: %q", n)
	}
	s.Touched("api/v2/deep/x/f.txt")
	if n := s.Notes(); len(n) != 1 || !strings.Contains(n[0], "DEEP") {
		t.Errorf("a deeper folder: %q", n)
	}
	var paths []string
	for _, f := range s.Files() {
		paths = append(paths, f.Scope+":"+filepath.Base(f.Path))
	}
	if got := strings.Join(paths, " "); got != "user:AGENTS.md workspace:AGENTS.md api:AGENTS.md api/v2:CLAUDE.md api/v2/deep:AGENTS.md" {
		t.Errorf("files told: %s", got)
	}
}

func TestClaudeImportsInsideOnlyAndCapped(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	tree(t, base, map[string]string{"secret.md": "OUTSIDE-SECRET"})
	tree(t, ws, map[string]string{
		"CLAUDE.md":      "See @docs/style.md and @../secret.md and @~/.ssh/id_rsa, not `@docs/code.md`; mail @someone.\n```\n@docs/fenced.md\n```\n@docs/link.md\n",
		"docs/style.md":  "STYLE @more.md",
		"docs/more.md":   "MORE",
		"docs/code.md":   "CODE",
		"docs/fenced.md": "FENCED",
		"big/AGENTS.md":  strings.Repeat("b", MaxFileBytes+100),
	})
	os.Symlink(filepath.Join(base, "secret.md"), filepath.Join(ws, "docs", "link.md"))
	s := New(ws, "")
	p := s.Prompt()
	for _, want := range []string{"STYLE", "MORE", "@../secret.md in CLAUDE.md was not imported: it lies outside", "@~/.ssh/id_rsa in CLAUDE.md was not imported", "@docs/link.md in CLAUDE.md was not imported"} {
		if !strings.Contains(p, want) {
			t.Errorf("prompt lacks %q: %s", want, p)
		}
	}
	for _, bad := range []string{"OUTSIDE-SECRET", "CODE", "FENCED"} {
		if strings.Contains(p, bad) {
			t.Errorf("prompt holds %q: %s", bad, p)
		}
	}
	s.Touched("big/x.go")
	n := s.Notes()
	if len(n) != 1 || !strings.Contains(n[0], "cut here: it is longer than 32 KiB") || len(n[0]) > MaxFileBytes+1000 {
		t.Errorf("a long nested AGENTS.md is not capped: %d", len(n[0]))
	}
}

// A root AGENTS.md linked out of the workspace is not read, as before.
func TestLinkOutsideNotRead(t *testing.T) {
	base := t.TempDir()
	ws := filepath.Join(base, "ws")
	tree(t, base, map[string]string{"outside.md": "OUTSIDE"})
	os.MkdirAll(filepath.Join(ws, "sub"), 0o755)
	os.Symlink(filepath.Join(base, "outside.md"), filepath.Join(ws, "AGENTS.md"))
	os.Symlink(filepath.Join(base, "outside.md"), filepath.Join(ws, "sub", "AGENTS.md"))
	s := New(ws, "")
	if p := s.Prompt(); strings.Contains(p, "OUTSIDE") {
		t.Errorf("root link read: %q", p)
	}
	s.Touched("sub/a.go")
	if n := s.Notes(); len(n) != 0 {
		t.Errorf("nested link read: %q", n)
	}
}

// The user's AGENTS.md, the root's and a CLAUDE.md import are each capped
// at MaxFileBytes, and the list says which were; a root file linked out of
// the workspace is listed as not read, with the reason.
func TestEachFileCappedAndListed(t *testing.T) {
	long := func(c string) string { return strings.Repeat(c, MaxFileBytes+500) }
	ws, conf := t.TempDir(), t.TempDir()
	tree(t, conf, map[string]string{"AGENTS.md": long("u")})
	tree(t, ws, map[string]string{"CLAUDE.md": "See @docs/big.md\n" + long("r"), "docs/big.md": long("i")})
	s := New(ws, conf)
	p := s.Prompt()
	if n := strings.Count(p, "cut here: it is longer than 32 KiB"); n != 3 {
		t.Errorf("%d of 3 files say they were cut", n)
	}
	if len(p) > 3*MaxFileBytes+2000 {
		t.Errorf("the prompt holds %d bytes: a file was not capped", len(p))
	}
	files := s.Files()
	if len(files) != 3 {
		t.Fatalf("files %+v", files)
	}
	for _, f := range files {
		if !f.Truncated || f.Bytes != MaxFileBytes {
			t.Errorf("%s: truncated %v, %d bytes", f.Path, f.Truncated, f.Bytes)
		}
	}
	if files[2].ImportedBy != "CLAUDE.md" || files[2].Path != "docs/big.md" {
		t.Errorf("the import: %+v", files[2])
	}

	base := t.TempDir()
	ws = filepath.Join(base, "ws")
	tree(t, base, map[string]string{"outside.md": "OUTSIDE"})
	os.MkdirAll(ws, 0o755)
	os.Symlink(filepath.Join(base, "outside.md"), filepath.Join(ws, "AGENTS.md"))
	s = New(ws, "")
	s.Prompt()
	if f := s.Files(); len(f) != 1 || f[0].Path != "AGENTS.md" || f[0].Skipped == "" || f[0].Bytes != 0 {
		t.Errorf("a root file linked out is not listed as not read: %+v", f)
	}
}
