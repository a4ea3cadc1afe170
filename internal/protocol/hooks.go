package protocol

import "encoding/json"

// HookRun is one of the user's hooks that ran on a call or a prompt: what
// a tool card, the approval dialog, `exec --json` and the audit log name.
// Stdout and Stderr are capped (64 KiB each) and shown on demand.
type HookRun struct {
	// Name is the hook's command as written.
	Name string `json:"name"`
	// Event is the hook's event (PreToolUse, PostToolUse, ...).
	Event string `json:"event"`
	// Source is where the hook came from: "user" (the user's hooks file),
	// "workspace" (the workspace's, once trusted) or "agent NAME" (the
	// front matter of the definition of the agent whose child ran it).
	Source string `json:"source"`
	// ToolName is the name the call was shown under (bash, or an alias
	// such as Bash or Write); empty for events without a tool.
	ToolName string `json:"toolName,omitempty"`
	// Decision is the hook's answer: allow, deny, ask, defer, block, or
	// "" (no objection).
	Decision string `json:"decision,omitempty"`
	// Verdict is the answer in words ("deny", "no objection", "failed
	// (timed out after 30s), deny", "ask, rewrote the input").
	Verdict string `json:"verdict"`
	// Reason is the hook's own reason (permissionDecisionReason, reason,
	// or stderr on exit 2).
	Reason string `json:"reason,omitempty"`
	// Rewrote: the hook's updatedInput changed the call.
	Rewrote bool `json:"rewrote,omitempty"`
	// ExitCode is the hook's exit code (-1 when it did not exit itself).
	ExitCode   int    `json:"exitCode"`
	DurationMs int64  `json:"durationMs"`
	Stdout     string `json:"stdout,omitempty"`
	Stderr     string `json:"stderr,omitempty"`
	// Failed says why the hook did not answer (could not start, timed
	// out, killed, an exit code other than 0 and 2); "" when it did.
	Failed string `json:"failed,omitempty"`
}

// HookRewrite says that a PreToolUse hook's updatedInput rewrote a call:
// what was planned, shown in the approval dialog and run is Args, not the
// arguments the model sent (Original).
type HookRewrite struct {
	// Hook is the rewriting hook's name (its command).
	Hook     string          `json:"hook"`
	Original json.RawMessage `json:"original"`
	Args     json.RawMessage `json:"args"`
}
