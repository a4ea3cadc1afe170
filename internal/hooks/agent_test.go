package hooks

import (
	"context"
	"strings"
	"testing"
)

// An agent's hooks run beside the runner's own, the strictest answer
// winning; its Stop hook runs on SubagentStop; turning one off in
// Settings (its ID, which names the agent) keeps it from running while
// the same command of the user's still runs.
func TestAgentHooksRunBesideTheOthersAndTurnOff(t *testing.T) {
	user, err := Parse([]byte(`{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "echo '{\"hookSpecificOutput\": {\"permissionDecision\": \"allow\"}}'"}]}]}}`), "user")
	if err != nil {
		t.Fatal(err)
	}
	agent, err := ParseAgent([]byte(`{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo no >&2; exit 2"}]}],
		"Stop": [{"hooks": [{"type": "command", "command": "echo stop"}]}]}}`), "guard.md", "guard.md:4: hooks", "guard")
	if err != nil {
		t.Fatal(err)
	}
	var off []string
	r := &Runner{Hooks: user, ProjectDir: t.TempDir(), Agent: func() []Hook { return agent }, Off: func() []string { return off }}
	ctx := context.Background()
	o := r.Run(ctx, PreToolUse, Input{}, bashCall("ls"))
	if len(o.Ran) != 2 || o.Permission != "deny" || o.Ran[1].Report().Source != "agent guard" {
		t.Fatalf("outcome %+v", o)
	}
	if o := r.Run(ctx, SubagentStop, Input{}, nil); len(o.Ran) != 1 || strings.TrimSpace(o.Ran[0].Stdout) != "stop" {
		t.Fatalf("the agent's Stop hook on SubagentStop: %+v", o.Ran)
	}
	if o := r.Run(ctx, Stop, Input{}, nil); len(o.Ran) != 0 {
		t.Fatalf("the agent's Stop hook ran on a main session's Stop: %+v", o.Ran)
	}
	off = []string{agent[0].ID()}
	if o := r.Run(ctx, PreToolUse, Input{}, bashCall("ls")); len(o.Ran) != 1 || o.Permission != "allow" {
		t.Fatalf("turned off, the agent's hook still ran: %+v", o)
	}
}
