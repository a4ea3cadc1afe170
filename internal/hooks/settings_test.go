package hooks

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hook turned off in Settings is listed and never runs; the others do.
func TestDisabledHookDoesNotRun(t *testing.T) {
	r, ws := runner(t, pre(`{"matcher": "bash", "hooks": [{"type": "command", "command": "touch ran-a"}, {"type": "command", "command": "touch ran-b"}]}`), nil)
	off := []string{r.Hooks[0].ID()}
	r.Hooks = Disable(r.Hooks, off)
	o := r.Run(context.Background(), PreToolUse, Input{}, bashCall("ls"))
	if len(o.Ran) != 1 || o.Ran[0].Name != "touch ran-b" {
		t.Fatalf("ran %+v", o.Ran)
	}
	if _, err := os.Stat(filepath.Join(ws, "ran-a")); !os.IsNotExist(err) {
		t.Errorf("the disabled hook ran: %v", err)
	}
	es := Entries(r.Hooks)
	if len(es) != 2 || es[0].Enabled || !es[1].Enabled || !es[0].FailsClosed || es[0].Source != ScopeUser || es[0].TimeoutSec != 30 {
		t.Errorf("entries %+v", es)
	}
	if r.Hooks[0].ID() == r.Hooks[1].ID() {
		t.Error("two hooks share an id")
	}
}

// Try runs one hook on a sample of its event and reports its verdict,
// stdout, stderr, exit code and time; a tool hook hears a call its
// matcher matches, under the name it matches.
func TestTryRunsAHookOnASample(t *testing.T) {
	r, ws := runner(t, `{"hooks": {
		"PreToolUse": [{"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "cat > DIR/heard.json; echo checked; echo careful >&2; exit 2"}]}],
		"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "exit 7"}]}],
		"PostToolUse": [{"matcher": "mcp__docs__search", "hooks": [{"type": "command", "command": "cat > DIR/post.json"}]}]}}`, nil)
	sdir := filepath.Join(filepath.Dir(ws), "hooks")
	got, err := Try(context.Background(), r.Hooks[1], ws, r.Environ)
	if err != nil {
		t.Fatal(err)
	}
	if got.Event != "PreToolUse" || got.Decision != "deny" || got.ExitCode != 2 || got.Stdout != "checked\n" || got.Stderr != "careful\n" || got.ToolName != "Write" {
		t.Errorf("PreToolUse try %+v", got)
	}
	heard, _ := os.ReadFile(filepath.Join(sdir, "heard.json"))
	if !strings.Contains(string(heard), `"file_path":"`+ws+`/gatehouse-hook-test.txt"`) {
		t.Errorf("the hook heard %s", heard)
	}
	got, _ = Try(context.Background(), r.Hooks[0], ws, r.Environ)
	if got.Failed != "exited with 7" || got.Decision != "block" || got.ExitCode != 7 {
		t.Errorf("UserPromptSubmit try %+v", got)
	}
	got, _ = Try(context.Background(), r.Hooks[2], ws, r.Environ)
	post, _ := os.ReadFile(filepath.Join(sdir, "post.json"))
	if got.ToolName != "mcp__docs__search" || !strings.Contains(string(post), `"tool_response":{"exitCode":0`) {
		t.Errorf("PostToolUse try %+v heard %s", got, post)
	}
}
