package runtime

import (
	"encoding/json"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/policy"
	"gatehouse/internal/tools"
)

// TestBuiltinPolicyNamesWhatSafeRuns: over every tool a session offers,
// the built-in layer says read-only for exactly the calls the tools
// themselves say only read (so safe and plan decide as before), and every
// rule of it names a tool that exists.
func TestBuiltinPolicyNamesWhatSafeRuns(t *testing.T) {
	h := start(t, llmtest.Script{}, approval.Safe, nil, nil)
	builtin := policy.Builtin()
	args := []string{`{}`, `not json`, `{"path":"a.txt"}`}
	for _, a := range []string{"exec", "start", "status", "logs", "list", "write", "stop", ""} {
		args = append(args, `{"action":"`+a+`","command":"true","processId":"p1"}`)
	}
	inBuiltin := map[string]bool{}
	for _, r := range builtin {
		inBuiltin[r.Tool] = true
	}
	named := map[string]bool{}
	for _, tl := range h.sess.surface.List() {
		named[tl.Spec().Name] = true
		for _, a := range args {
			// A core tool that reads is in the data, not only in its code
			// (providers' tools, MCP's and the agents', speak for themselves).
			if tools.ReadOnlyCall(tl, json.RawMessage(a)) && !inBuiltin[tl.Spec().Name] {
				t.Errorf("%s reads (%s) but the built-in layer does not name it", tl.Spec().Name, a)
			}
			if got, want := approval.ReadsOnly(builtin, tl, json.RawMessage(a)), tools.ReadOnlyCall(tl, json.RawMessage(a)); got != want {
				t.Errorf("%s %s: the built-in layer says read-only %v, the tool %v", tl.Spec().Name, a, got, want)
			}
		}
	}
	for _, r := range builtin {
		if !named[r.Tool] && r.Tool != "subagent_status" && r.Tool != "subagent_result" { // the agents' tools: checked in internal/agents
			t.Errorf("built-in rule %s names %s, which no session offers", r.ID, r.Tool)
		}
	}
}
