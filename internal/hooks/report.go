package hooks

import (
	"encoding/json"

	"gatehouse/internal/protocol"
)

// Report is run ran as the card, the dialog and the --json events show it.
func (ran Ran) Report() protocol.HookRun {
	scope := ran.Hook.Scope
	switch {
	case ran.Hook.Agent != "":
		scope = ScopeAgent + " " + ran.Hook.Agent
	case ran.Hook.Confined:
		scope = ScopeWorkspace
	case scope == "":
		scope = ScopeUser
	}
	return protocol.HookRun{Name: ran.Name, Event: string(ran.Hook.Event), Source: scope, ToolName: ran.ToolName,
		Decision: ran.answer.decision, Verdict: ran.Verdict, Reason: ran.answer.reason, Rewrote: ran.answer.updated != nil,
		ExitCode: ran.ExitCode, DurationMs: ran.Duration.Milliseconds(), Stdout: ran.Stdout, Stderr: ran.Stderr, Failed: ran.Failed}
}

// Reports are the outcome's runs as reports, in the order they ran.
func (o Outcome) Reports() []protocol.HookRun {
	if len(o.Ran) == 0 {
		return nil
	}
	out := make([]protocol.HookRun, len(o.Ran))
	for i, r := range o.Ran {
		out[i] = r.Report()
	}
	return out
}

// rewrite is the outcome's rewrite of a call whose arguments were
// original (nil: no hook rewrote it).
func (o Outcome) rewrite(original, args json.RawMessage) *protocol.HookRewrite {
	if o.RewrittenBy == "" {
		return nil
	}
	return &protocol.HookRewrite{Hook: o.RewrittenBy, Original: original, Args: args}
}
