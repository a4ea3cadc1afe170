package approval

import (
	"context"
	"strings"
	"testing"

	"gatehouse/internal/protocol"
)

// The terminal prompt says which hook asked and why, and that the call it
// shows is a hook's rewrite, before the preview; a hook's name is escaped
// like everything else shown there.
func TestTerminalNamesTheHooks(t *testing.T) {
	req := terminalRequest()
	req.Hooks = []protocol.HookRun{
		{Name: "./freeze.sh", Event: "PreToolUse", Source: "user", Decision: "ask", Verdict: "ask", Reason: "release freeze"},
		{Name: "fmt\x1b[2J", Event: "PreToolUse", Source: "workspace", Verdict: "no objection, rewrote the input", Rewrote: true},
	}
	req.Rewrite = &protocol.HookRewrite{Hook: "fmt\x1b[2J"}
	var out strings.Builder
	NewTerminal(strings.NewReader("n\n\n"), &out).Ask(context.Background(), req)
	s := out.String()
	for _, want := range []string{
		`hook "./freeze.sh" (PreToolUse, user): ask — release freeze`,
		`rewritten by hook "fmt\x1b[2J": this is the call as the hook changed it`,
		`(PreToolUse, workspace): no objection, rewrote the input`,
	} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in %q", want, s)
		}
	}
	if strings.Contains(s, "\x1b") {
		t.Errorf("a raw escape reached the terminal: %q", s)
	}
	if strings.Index(s, "freeze.sh") > strings.Index(s, "update a.txt +") {
		t.Errorf("the hooks come after the preview: %q", s)
	}
}
