package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"

	"gatehouse/internal/protocol"
)

// samples are the calls a hook is tried on, in order: the first one the
// hook's matcher matches (under its own name or an alias) is used.
var samples = []Call{
	{ID: "hook-test", Tool: "bash", Args: json.RawMessage(`{"action":"exec","command":"echo hello from a Gatehouse hook test"}`)},
	{ID: "hook-test", Tool: "write_file", Args: json.RawMessage(`{"path":"gatehouse-hook-test.txt","content":"a sample line\n"}`)},
	{ID: "hook-test", Tool: "read_file", Args: json.RawMessage(`{"path":"gatehouse-hook-test.txt"}`)},
	{ID: "hook-test", Tool: "apply_patch", Args: json.RawMessage(`{"patch":"*** Begin Patch\n*** Update File: gatehouse-hook-test.txt\n@@\n-a sample line\n+a changed line\n*** End Patch"}`)},
	{ID: "hook-test", Tool: "list_dir", Args: json.RawMessage(`{"path":"."}`)},
	{ID: "hook-test", Tool: "grep", Args: json.RawMessage(`{"pattern":"TODO"}`)},
	{ID: "hook-test", Tool: "web_fetch", Args: json.RawMessage(`{"url":"https://example.com/"}`)},
}

// SampleInput is what a hook of ev hears when it is tried: a harmless
// prompt, source, reason or message, as the event carries them.
func SampleInput(ev Event) Input {
	no := false
	switch ev {
	case UserPromptSubmit:
		return Input{Prompt: "A sample prompt: Gatehouse is testing this hook."}
	case Stop, SubagentStop:
		return Input{StopHookActive: &no}
	case SessionStart:
		return Input{Source: "startup"}
	case SessionEnd:
		return Input{Reason: "other"}
	case PreCompact:
		return Input{Trigger: "manual"}
	case Notification:
		return Input{Message: "Gatehouse is testing this hook"}
	case PostToolUse:
		return Input{ToolResponse: json.RawMessage(`{"exitCode":0,"stdout":"hello from a Gatehouse hook test\n"}`)}
	case PostToolUseFailure:
		return Input{Error: "a sample failure: Gatehouse is testing this hook"}
	}
	return Input{}
}

// SampleCall is the call hook h is tried on: the first sample its matcher
// matches; a matcher that is one literal name (mcp__docs__search) gets a
// call of that name; any other gets the bash sample, run whatever the
// matcher says.
func SampleCall(h Hook) (Call, Hook) {
	for _, c := range samples {
		if len(viewsFor(h, Views(c, "/"))) > 0 {
			return c, h
		}
	}
	if m := h.Matcher; m != "" && regexp.QuoteMeta(m) == m {
		return Call{ID: "hook-test", Tool: m, Args: json.RawMessage(`{}`)}, h
	}
	h.re = nil
	return samples[0], h
}

// Try runs hook h once, on a sample of its event (SampleInput, and for a
// tool event SampleCall), in dir, and reports what it said. Nothing else
// runs: the sample call is only shown to the hook. A disabled hook is
// tried all the same.
func Try(ctx context.Context, h Hook, dir string, environ func() []string) (protocol.HookRun, error) {
	h.Disabled = false
	in := SampleInput(h.Event)
	var call *Call
	if h.Event.hasTools() {
		c, ch := SampleCall(h)
		call, h = &c, ch
	}
	r := &Runner{Hooks: []Hook{h}, ProjectDir: dir, SessionID: "hook-test", Mode: func() string { return "safe" }, Environ: environ}
	o := r.Run(ctx, h.Event, in, call)
	if len(o.Ran) == 0 {
		return protocol.HookRun{}, errors.New("the hook did not run on the sample")
	}
	return o.Ran[0].Report(), nil
}
