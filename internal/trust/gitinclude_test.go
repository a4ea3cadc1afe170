package trust

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Trust in git settings covers what the config pulls in: included files
// (in the tree, with a warning; outside; absent, recorded as such) and
// the core.hooksPath folder; a change to any of them changes the hash.
func TestGitContentCoversIncludesAndHooksPath(t *testing.T) {
	top, out := t.TempDir(), t.TempDir()
	hooks := filepath.Join(out, "hooks")
	os.MkdirAll(filepath.Join(top, ".git", "hooks"), 0o755)
	os.MkdirAll(hooks, 0o755)
	os.WriteFile(filepath.Join(hooks, "pre-commit"), []byte("#!/bin/sh\n"), 0o755)
	os.WriteFile(filepath.Join(top, "dev.gitconfig"), []byte("[include]\n\tpath = nested.cfg\n"), 0o644)
	missing := filepath.Join(out, "later.cfg")
	cfg := "[core]\n\thooksPath = " + hooks + " ; a comment\n[include]\n\tpath = \"../dev.gitconfig\"\n[includeIf \"gitdir:/elsewhere/\"]\n\tpath = " + missing + "\n"
	os.WriteFile(filepath.Join(top, ".git", "config"), []byte(cfg), 0o644)
	c, err := Read(top, KindGit)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{".git/config", "dev.gitconfig", "nested.cfg" + absentSuffix, missing + absentSuffix, filepath.Join(hooks, "pre-commit")} {
		if !slices.Contains(c.Files, want) {
			t.Errorf("trust does not cover %s: %v", want, c.Files)
		}
	}
	if w := strings.Join(c.Warnings, "\n"); len(c.Warnings) != 2 || !strings.Contains(w, "dev.gitconfig is in the working tree") || !strings.Contains(w, "nested.cfg is in") {
		t.Errorf("warnings = %v", c.Warnings)
	}
	// In this order: the last change drops the include of nested.cfg, so
	// nested.cfg must be created before it.
	for _, step := range []struct {
		name   string
		change func()
	}{
		{"a hook in core.hooksPath", func() { os.WriteFile(filepath.Join(hooks, "post-checkout"), []byte("x"), 0o755) }},
		{"the missing include", func() { os.WriteFile(missing, []byte("[core]\n"), 0o644) }},
		{"the nested include", func() { os.WriteFile(filepath.Join(top, "nested.cfg"), []byte("[core]\n"), 0o644) }},
		{"the included file's bytes", func() { os.WriteFile(filepath.Join(top, "dev.gitconfig"), []byte("[core]\n"), 0o644) }},
	} {
		name := step.name
		before := c.Hash
		step.change()
		if c, err = Read(top, KindGit); err != nil || c.Hash == before {
			t.Errorf("%s changed and the hash did not (%v)", name, err)
		}
	}
	// A hook that is a link cannot be trusted, not even as shown.
	os.Symlink("/bin/true", filepath.Join(top, ".git", "hooks", "post-merge"))
	c, _ = Read(top, KindGit)
	ts := NewStore(t.TempDir())
	if err := ts.TrustShown(top, KindGit, c.Hash); err == nil || !strings.Contains(err.Error(), "cannot be trusted") {
		t.Fatalf("a linked hook was trusted: %v", err)
	}
	if ts.TrustsGit(top) {
		t.Fatal("TrustsGit with a linked hook")
	}
}
