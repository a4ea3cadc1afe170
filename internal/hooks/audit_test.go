package hooks

import (
	"context"
	"strings"
	"sync"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/tools"
)

// Every hook decision is in the audit log: a PreToolUse deny names the
// hook, its verdict and its reason, decided by hooks; a call the hooks let
// through is there too (no verdict of theirs), and a PostToolUse block is
// a deny after the call.
func TestHookDecisionsAreAudited(t *testing.T) {
	r, _ := runner(t, `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "DIR/deny.sh"}]},
		{"matcher": "Read", "hooks": [{"type": "command", "command": "true"}]}],
		"PostToolUse": [{"matcher": "Read", "hooks": [{"type": "command", "command": "echo 'not this file' >&2; exit 2"}]}]}}`,
		map[string]string{"deny.sh": "#!/bin/sh\necho 'no shell here' >&2\nexit 2\n"})
	var mu sync.Mutex
	var got []approval.AuditEntry
	r.Audit = func(e approval.AuditEntry) { mu.Lock(); got = append(got, e); mu.Unlock() }
	next := func(context.Context, tools.Call) (tools.Result, error) {
		return tools.OK(map[string]string{"content": "x"})
	}
	h := r.Middleware(nil, next)
	b := bashCall("ls")
	if res, _ := h(context.Background(), tools.Call{ID: "c1", Name: "bash", Args: b.Args}); !res.IsError {
		t.Fatalf("the hook's deny did not refuse: %s", res.Output)
	}
	h(context.Background(), tools.Call{ID: "c2", Name: "read_file", Args: []byte(`{"path":"a.txt"}`)})
	if len(got) != 3 {
		t.Fatalf("audit entries %+v, want 3", got)
	}
	d := got[0]
	if d.By != ByHook || d.Decision != approval.VerdictDeny || d.CallID != "c1" || d.Tool != "bash" ||
		!strings.Contains(d.Summary, "deny.sh") || !strings.Contains(d.Summary, "no shell here") || d.Mode != "auto" {
		t.Errorf("deny entry %+v", d)
	}
	if got[1].CallID != "c2" || got[1].Decision != approval.VerdictNone || !strings.Contains(got[1].Summary, "PreToolUse hook \"true\"") {
		t.Errorf("pass entry %+v", got[1])
	}
	if got[2].Decision != approval.VerdictDeny || !strings.HasPrefix(got[2].Summary, "PostToolUse") || !strings.Contains(got[2].Summary, "not this file") {
		t.Errorf("post entry %+v", got[2])
	}
}
