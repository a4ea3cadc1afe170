package hooks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const claudeSettings = `{
  "permissions": {"allow": ["Bash(npm test)"]},
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [
        {"type": "command", "command": "exit 0"},
        {"type": "command", "command": "exit 1"},
        {"type": "command", "command": "no-such-program-for-gatehouse --check"},
        {"type": "command", "command": "sleep 5", "timeout": 0.2}]},
      {"matcher": "Write|Edit", "hooks": [{"type": "prompt", "prompt": "Is this safe?"}]}],
    "PostToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "exit 1"}]}],
    "PermissionRequest": [{"hooks": [{"type": "command", "command": "true"}]}],
    "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "echo context"}]}]
  }
}`

func claudeFiles(t *testing.T, settings, hooks string) (from, into string) {
	t.Helper()
	dir := t.TempDir()
	from, into = filepath.Join(dir, "claude", "settings.json"), filepath.Join(dir, "config", "hooks.json")
	os.MkdirAll(filepath.Dir(from), 0o700)
	os.WriteFile(from, []byte(settings), 0o600)
	if hooks != "" {
		os.MkdirAll(filepath.Dir(into), 0o700)
		os.WriteFile(into, []byte(hooks), 0o600)
	}
	return from, into
}

func byCommand(im ClaudeImport) map[string]ImportCandidate {
	out := map[string]ImportCandidate{}
	for _, c := range im.Candidates {
		out[c.Event+" "+c.Command] = c
	}
	return out
}

// The import lists every hook with its command; marks what cannot come
// (another event, another type) and what is there already; and after
// running the fail-closed ones on a sample, marks those that would now
// block: exit 1, a program not found, a timeout. A hook that exits 0, one
// of an event that goes on after a failure (PostToolUse), are not marked.
func TestClaudeImportMarksHooksThatWouldNowBlock(t *testing.T) {
	from, into := claudeFiles(t, claudeSettings, `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0"}]}]}}`)
	im, err := ReadClaude(from, into)
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Candidates) != 8 {
		t.Fatalf("%d candidates: %+v", len(im.Candidates), im.Candidates)
	}
	im.Check(context.Background(), t.TempDir(), func() []string { return []string{"PATH=" + os.Getenv("PATH")} })
	c := byCommand(im)
	if x := c["PreToolUse exit 0"]; !x.Duplicate || x.WouldBlock != "" {
		t.Errorf("exit 0: %+v", x)
	}
	for cmd, why := range map[string]string{
		"PreToolUse exit 1": "exited with 1 on a sample call",
		"PreToolUse no-such-program-for-gatehouse --check": "exited with 127",
		"PreToolUse sleep 5": "timed out after 200ms",
	} {
		if x := c[cmd]; !x.FailsClosed || !strings.Contains(x.WouldBlock, why) || !strings.Contains(x.WouldBlock, "Claude Code would go on") || x.Checked == nil {
			t.Errorf("%s: %+v", cmd, x)
		}
	}
	if x := c["PostToolUse exit 1"]; x.FailsClosed || x.WouldBlock != "" || x.Checked != nil {
		t.Errorf("PostToolUse: %+v", x)
	}
	if x := c["UserPromptSubmit echo context"]; !x.FailsClosed || x.WouldBlock != "" || x.Checked == nil || x.Checked.Stdout != "context\n" {
		t.Errorf("UserPromptSubmit: %+v", x)
	}
	if x := c["PermissionRequest true"]; !strings.Contains(x.Skip, "does not run PermissionRequest") {
		t.Errorf("PermissionRequest: %+v", x)
	}
	if x := c["PreToolUse "]; !strings.Contains(x.Skip, `a "prompt" hook`) {
		t.Errorf("prompt hook: %+v", x)
	}
}

// Importing merges into the user's hooks file: what was there stays, a
// hook with the same event, matcher and command is not written twice (a
// second import adds nothing), a hook the user let go on gets onError
// continue, and the file parses and runs.
func TestClaudeImportMergesWithoutDuplicates(t *testing.T) {
	from, into := claudeFiles(t, claudeSettings, `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 0", "timeout": 5}]}],
		"Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}]}}`)
	im, err := ReadClaude(from, into)
	if err != nil {
		t.Fatal(err)
	}
	c := byCommand(im)
	picks := []ImportPick{{Key: c["PreToolUse exit 0"].Key}, {Key: c["PreToolUse exit 1"].Key, ContinueOnError: true},
		{Key: c["PostToolUse exit 1"].Key}, {Key: c["UserPromptSubmit echo context"].Key}, {Key: c["UserPromptSubmit echo context"].Key}}
	n, err := im.Merge(picks)
	if err != nil || n != 3 {
		t.Fatalf("merged %d, %v", n, err)
	}
	hs, err := Load(into)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range hs {
		got = append(got, string(h.Event)+" "+h.Matcher+" "+h.Command+" "+h.Timeout.String()+map[bool]string{true: " continue"}[h.ContinueOnError])
	}
	want := []string{"UserPromptSubmit  echo context 30s", "PreToolUse Bash exit 0 5s", "PreToolUse Bash exit 1 30s continue",
		"PostToolUse Write exit 1 30s", "Stop  ./stop.sh 30s"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("hooks file now:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	im, _ = ReadClaude(from, into)
	c = byCommand(im)
	if n, err := im.Merge([]ImportPick{{Key: c["PreToolUse exit 1"].Key}, {Key: c["PostToolUse exit 1"].Key}}); n != 0 || err != nil {
		t.Errorf("a second import added %d (%v)", n, err)
	}
}

// Bad input gets a clear error and changes nothing: a settings file that is
// not JSON, a missing one, a hooks file that does not parse, a key that is
// not in the file (it changed since shown), a hook that cannot be imported.
func TestClaudeImportBadInputLeavesTheFileUnchanged(t *testing.T) {
	from, into := claudeFiles(t, `{"hooks": `, "")
	if _, err := ReadClaude(from, into); err == nil || !strings.Contains(err.Error(), "is not Claude Code's settings") {
		t.Errorf("truncated settings: %v", err)
	}
	if _, err := ReadClaude(from+".missing", into); err == nil || !strings.Contains(err.Error(), "there is no") {
		t.Errorf("missing settings: %v", err)
	}
	bad := `{"hooks": {"PreToolUse": [{"matcher": "(", "hooks": [{"type": "command", "command": "x"}]}]}}`
	from, into = claudeFiles(t, claudeSettings, bad)
	if _, err := ReadClaude(from, into); err == nil || !strings.Contains(err.Error(), "your hooks file cannot be read") {
		t.Errorf("bad hooks file: %v", err)
	}
	good := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "./stop.sh"}]}]}}`
	from, into = claudeFiles(t, claudeSettings, good)
	im, err := ReadClaude(from, into)
	if err != nil {
		t.Fatal(err)
	}
	c := byCommand(im)
	for _, picks := range [][]ImportPick{
		{{Key: c["PreToolUse exit 1"].Key}, {Key: "0123456789abcdef"}},
		{{Key: c["PreToolUse exit 1"].Key}, {Key: c["PermissionRequest true"].Key}},
	} {
		if n, err := im.Merge(picks); err == nil || n != 0 {
			t.Errorf("merged %d of %+v", n, picks)
		}
		if b, _ := os.ReadFile(into); string(b) != good {
			t.Errorf("the hooks file changed: %s", b)
		}
	}
	os.WriteFile(into, []byte(bad), 0o600)
	if _, err := im.Merge([]ImportPick{{Key: c["PreToolUse exit 1"].Key}}); err == nil || !strings.Contains(err.Error(), "not valid") {
		t.Errorf("merge into a bad file: %v", err)
	}
	if b, _ := os.ReadFile(into); string(b) != bad {
		t.Errorf("the bad hooks file changed: %s", b)
	}
}
